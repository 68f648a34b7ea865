// Written by scripts/calibrate.ts: do not edit by hand. Refit with `npx tsx scripts/calibrate.ts`.
import type { CalibrationModel } from './confidence.js';

export const CALIBRATION: CalibrationModel = {
  "fitted": "scripts/calibrate.ts on cal8: 1218 values from 70 documents",
  "engines": {
    "local": {
      "finders": {
        "contract:/title:heading naming an agreement": [
          8,
          2
        ],
        "contract:/effectiveDate:date after a phrase": [
          6,
          1
        ],
        "contract:/expirationDate:date after a phrase": [
          6,
          1
        ],
        "contract:/governingLaw:governing law clause or label": [
          5,
          3
        ],
        "contract:/terminationClauses/*:termination section or sentences": [
          23,
          2
        ],
        "contract:/renewalClauses/*:renewal section or sentences": [
          6,
          3
        ],
        "contract:/keyObligations/*:obligations section": [
          30,
          15
        ],
        "contract:/parties/*/name:roles, party list or preamble": [
          4,
          5
        ],
        "contract:/parties/*/role:roles, party list or preamble": [
          4,
          5
        ],
        "contract:/effectiveDate:labelled date": [
          1,
          0
        ],
        "contract:/expirationDate:labelled date": [
          1,
          0
        ],
        "contract:/totalValue:total value": [
          4,
          0
        ],
        "contract:/currency:currency of the total value": [
          4,
          0
        ],
        "contract:/keyObligations/*:binding list items": [
          5,
          0
        ],
        "custom:/title:title line": [
          1,
          0
        ],
        "custom:/rentCurrency:document currency": [
          1,
          0
        ],
        "custom:/monthlyExpenses:labelled figure": [
          1,
          0
        ],
        "custom:/workshopName:title line": [
          1,
          0
        ],
        "custom:/serviceDate:labelled value": [
          1,
          0
        ],
        "custom:/vehicle/make:labelled value": [
          1,
          0
        ],
        "custom:/vehicle/model:labelled value": [
          1,
          0
        ],
        "custom:/vehicle/vin:labelled value": [
          1,
          0
        ],
        "custom:/vehicle/odometerKm:labelled figure": [
          1,
          0
        ],
        "custom:/serviceType:labelled value": [
          1,
          0
        ],
        "custom:/partsReplaced/*/partName:rows under the property's heading": [
          0,
          1
        ],
        "custom:/partsReplaced/*/lineTotal:rows under the property's heading": [
          0,
          1
        ],
        "custom:/labourHours:labelled figure": [
          0,
          1
        ],
        "custom:/totalIncGst:labelled money": [
          0,
          1
        ],
        "custom:/nextServiceDueKm:labelled figure": [
          1,
          0
        ],
        "custom:/nextServiceDueDate:labelled value": [
          1,
          0
        ],
        "custom:/logbookStamped:labelled yes or no": [
          1,
          0
        ],
        "custom:/exporter/name:member by shape": [
          0,
          1
        ],
        "custom:/goods/*/description:rows under the property's heading": [
          0,
          5
        ],
        "custom:/goods/*/grossWeightKg:rows under the property's heading": [
          0,
          2
        ],
        "custom:/policyNumber:labelled value": [
          1,
          0
        ],
        "custom:/policyholder/name:member by shape": [
          1,
          0
        ],
        "custom:/vehicleRegistration:labelled value": [
          0,
          1
        ],
        "custom:/coverType:labelled value": [
          1,
          0
        ],
        "custom:/namedDrivers/*/name:rows under the property's heading": [
          0,
          3
        ],
        "custom:/noClaimsBonusYears:labelled figure": [
          1,
          0
        ],
        "custom:/totalPremium:labelled money": [
          1,
          0
        ],
        "custom:/currency:document currency": [
          3,
          0
        ],
        "custom:/businessUseCovered:property word in a value": [
          0,
          1
        ],
        "custom:/hotelName:title line": [
          1,
          0
        ],
        "custom:/charges/*/description:rows under the property's heading": [
          0,
          8
        ],
        "custom:/charges/*/amount:rows under the property's heading": [
          0,
          1
        ],
        "custom:/totalAmount:labelled money": [
          1,
          0
        ],
        "custom:/studentName:labelled value": [
          1,
          0
        ],
        "custom:/matricNumber:labelled value": [
          1,
          0
        ],
        "custom:/programme:labelled value": [
          1,
          0
        ],
        "custom:/session:labelled value": [
          1,
          0
        ],
        "custom:/semester:labelled value": [
          1,
          0
        ],
        "custom:/totalUnits:labelled figure": [
          1,
          0
        ],
        "custom:/gpa:labelled figure": [
          1,
          0
        ],
        "custom:/cgpa:labelled figure": [
          1,
          0
        ],
        "custom:/academicStanding:labelled value": [
          1,
          0
        ],
        "custom:/supplier/nip:labelled value": [
          1,
          0
        ],
        "custom:/passengerName:labelled value": [
          1,
          0
        ],
        "custom:/flightNumber:labelled value": [
          1,
          0
        ],
        "custom:/departureDate:labelled value": [
          1,
          0
        ],
        "custom:/departureTime:labelled value": [
          1,
          0
        ],
        "custom:/boardingTime:labelled value": [
          1,
          0
        ],
        "custom:/gate:labelled value": [
          1,
          0
        ],
        "custom:/seat:labelled value": [
          1,
          0
        ],
        "custom:/baggageAllowanceKg:labelled figure": [
          1,
          0
        ],
        "custom:/containers/*/containerNumber:rows under the property's heading": [
          0,
          7
        ],
        "custom:/containers/*/sealNumber:rows under the property's heading": [
          0,
          8
        ],
        "custom:/containers/*/grossWeightKg:rows under the property's heading": [
          0,
          2
        ],
        "custom:/containers/*/volumeCbm:rows under the property's heading": [
          0,
          2
        ],
        "custom:/containers/*/sizeType:rows under the property's heading": [
          0,
          2
        ],
        "custom:/freightTerms:labelled value": [
          0,
          1
        ],
        "custom:/employee/name:member by shape": [
          1,
          0
        ],
        "custom:/payDate:labelled value": [
          1,
          0
        ],
        "custom:/paye:labelled money": [
          0,
          1
        ],
        "custom:/uifEmployee:labelled figure": [
          1,
          0
        ],
        "custom:/netPay:labelled money": [
          1,
          0
        ],
        "custom:/annualLeaveBalanceDays:figure beside the property's words": [
          1,
          0
        ],
        "invoice:/invoiceNumber:labelled pair": [
          6,
          0
        ],
        "invoice:/issueDate:labelled date": [
          9,
          0
        ],
        "invoice:/dueDate:labelled date": [
          9,
          0
        ],
        "invoice:/vendor/name:vendor label or letterhead": [
          5,
          5
        ],
        "invoice:/vendor/address:vendor label or letterhead": [
          6,
          2
        ],
        "invoice:/vendor/taxId:tax number in the party's block": [
          9,
          0
        ],
        "invoice:/customer/name:customer label": [
          7,
          1
        ],
        "invoice:/customer/address:customer label": [
          5,
          1
        ],
        "invoice:/lineItems/*/description:billed lines above the totals": [
          32,
          15
        ],
        "invoice:/lineItems/*/quantity:billed lines above the totals": [
          34,
          6
        ],
        "invoice:/lineItems/*/unitPrice:billed lines above the totals": [
          34,
          6
        ],
        "invoice:/lineItems/*/amount:billed lines above the totals": [
          37,
          10
        ],
        "invoice:/subtotal:subtotal line": [
          7,
          0
        ],
        "invoice:/tax:tax lines": [
          6,
          1
        ],
        "invoice:/total:total line": [
          8,
          1
        ],
        "invoice:/currency:document currency": [
          2,
          0
        ],
        "invoice:/currency:currency of the total": [
          8,
          0
        ],
        "invoice:/invoiceNumber:line led by the label": [
          2,
          0
        ],
        "invoice:/customer/taxId:tax number in the party's block": [
          0,
          3
        ],
        "invoice:/invoiceNumber:label and number in a column": [
          2,
          0
        ],
        "invoice:/dueDate:issue date plus net terms": [
          1,
          0
        ],
        "job-posting:/title:title line": [
          3,
          3
        ],
        "job-posting:/company:legal-form line near the top": [
          3,
          0
        ],
        "job-posting:/employmentType:labelled type": [
          6,
          1
        ],
        "job-posting:/salaryRange/min:pay line": [
          7,
          1
        ],
        "job-posting:/salaryRange/max:pay line": [
          6,
          2
        ],
        "job-posting:/salaryRange/currency:pay line": [
          8,
          0
        ],
        "job-posting:/salaryRange/period:pay line": [
          8,
          0
        ],
        "job-posting:/requirements/*:requirements list": [
          37,
          0
        ],
        "job-posting:/responsibilities/*:responsibilities list": [
          37,
          0
        ],
        "job-posting:/benefits/*:benefits list": [
          38,
          0
        ],
        "job-posting:/remote:workplace statement": [
          7,
          0
        ],
        "job-posting:/postedDate:posted in a sentence": [
          3,
          0
        ],
        "job-posting:/title:labelled title": [
          4,
          0
        ],
        "job-posting:/company:labelled company": [
          3,
          0
        ],
        "job-posting:/location:labelled location": [
          3,
          2
        ],
        "job-posting:/postedDate:labelled posting date": [
          6,
          0
        ],
        "job-posting:/company:hiring banner": [
          2,
          0
        ],
        "job-posting:/company:summary line part": [
          0,
          2
        ],
        "job-posting:/employmentType:type word near the top": [
          1,
          0
        ],
        "job-posting:/location:summary line place": [
          0,
          1
        ],
        "meeting-notes:/title:first line": [
          1,
          5
        ],
        "meeting-notes:/topicsDiscussed/*:agenda or numbered headings": [
          29,
          4
        ],
        "meeting-notes:/decisions/*:decisions section": [
          14,
          0
        ],
        "meeting-notes:/actionItems/*/owner:actions table": [
          4,
          0
        ],
        "meeting-notes:/actionItems/*/task:actions table": [
          4,
          0
        ],
        "meeting-notes:/openQuestions/*:questions section": [
          8,
          0
        ],
        "meeting-notes:/date:date near the top": [
          6,
          0
        ],
        "meeting-notes:/attendees/*:attendees section": [
          13,
          2
        ],
        "meeting-notes:/decisions/*:resolved lines": [
          3,
          0
        ],
        "meeting-notes:/actionItems/*/task:actions section": [
          12,
          10
        ],
        "meeting-notes:/actionItems/*/dueDate:actions section": [
          7,
          1
        ],
        "meeting-notes:/attendees/*:attendees pair": [
          5,
          0
        ],
        "meeting-notes:/actionItems/*/owner:actions section": [
          7,
          0
        ],
        "meeting-notes:/title:labelled title": [
          2,
          2
        ],
        "meeting-notes:/date:labelled date": [
          3,
          0
        ],
        "receipt:/merchant:letterhead": [
          9,
          1
        ],
        "receipt:/address:lines under the letterhead": [
          7,
          2
        ],
        "receipt:/date:first date printed": [
          5,
          0
        ],
        "receipt:/time:time on the date row": [
          7,
          0
        ],
        "receipt:/items/*/description:lines above the totals": [
          30,
          13
        ],
        "receipt:/items/*/quantity:lines above the totals": [
          30,
          13
        ],
        "receipt:/items/*/unitPrice:lines above the totals": [
          30,
          13
        ],
        "receipt:/items/*/amount:lines above the totals": [
          30,
          13
        ],
        "receipt:/subtotal:subtotal line": [
          7,
          1
        ],
        "receipt:/total:total line": [
          9,
          0
        ],
        "receipt:/currency:document currency": [
          4,
          0
        ],
        "receipt:/paymentMethod:tender line below the totals": [
          4,
          1
        ],
        "receipt:/date:labelled date": [
          5,
          0
        ],
        "receipt:/tax:tax lines": [
          4,
          1
        ],
        "receipt:/currency:currency of the total": [
          6,
          0
        ],
        "receipt:/time:labelled time": [
          3,
          0
        ],
        "receipt:/tip:tip line": [
          2,
          0
        ],
        "receipt:/paymentMethod:labelled tender": [
          2,
          0
        ],
        "renewal:/documentKindGuess:title words, then the text": [
          6,
          4
        ],
        "renewal:/vendorName/value:legal-form letterhead": [
          5,
          0
        ],
        "renewal:/product/value:labelled product, summary or sentence": [
          4,
          2
        ],
        "renewal:/currency/value:currency the document states": [
          2,
          0
        ],
        "renewal:/billingFrequency/value:billing period": [
          6,
          1
        ],
        "renewal:/seatCount/value:seats, users or licences": [
          6,
          0
        ],
        "renewal:/contractStartDate/value:date range": [
          4,
          1
        ],
        "renewal:/contractEndDate/value:date range": [
          4,
          1
        ],
        "renewal:/renewalDate/value:end of the term": [
          4,
          1
        ],
        "renewal:/noticePeriodDays/value:notice sentence": [
          3,
          0
        ],
        "renewal:/noticePeriodText/value:notice sentence": [
          4,
          2
        ],
        "renewal:/autoRenewalLanguage/value:renewal clause": [
          9,
          0
        ],
        "renewal:/autoRenewal/value:renewal clause": [
          9,
          0
        ],
        "renewal:/paymentTermsDays/value:payment terms": [
          7,
          0
        ],
        "renewal:/priceEscalationText/value:price increase sentence": [
          5,
          0
        ],
        "renewal:/billingAmount/value:fee statement": [
          2,
          5
        ],
        "renewal:/currency/value:currency of the fee": [
          7,
          0
        ],
        "renewal:/vendorName/value:organisation signing the letter": [
          1,
          0
        ],
        "renewal:/renewalDate/value:renewal date": [
          1,
          0
        ],
        "renewal:/billingAmount/value:subtotal of an invoice": [
          1,
          0
        ],
        "renewal:/currency/value:currency of the invoice subtotal": [
          1,
          0
        ],
        "renewal:/committedSpend/value:commitment": [
          1,
          0
        ],
        "renewal:/contractStartDate/value:labelled start": [
          1,
          0
        ],
        "renewal:/contractEndDate/value:labelled end": [
          1,
          0
        ]
      },
      "fields": {
        "contract:/title": [
          8,
          2
        ],
        "contract:/effectiveDate": [
          7,
          1
        ],
        "contract:/expirationDate": [
          7,
          1
        ],
        "contract:/governingLaw": [
          5,
          3
        ],
        "contract:/terminationClauses/*": [
          23,
          2
        ],
        "contract:/renewalClauses/*": [
          6,
          3
        ],
        "contract:/keyObligations/*": [
          35,
          15
        ],
        "contract:/parties/*/name": [
          4,
          5
        ],
        "contract:/parties/*/role": [
          4,
          5
        ],
        "contract:/totalValue": [
          4,
          0
        ],
        "contract:/currency": [
          4,
          0
        ],
        "custom:/title": [
          1,
          0
        ],
        "custom:/rentCurrency": [
          1,
          0
        ],
        "custom:/monthlyExpenses": [
          1,
          0
        ],
        "custom:/workshopName": [
          1,
          0
        ],
        "custom:/serviceDate": [
          1,
          0
        ],
        "custom:/vehicle/make": [
          1,
          0
        ],
        "custom:/vehicle/model": [
          1,
          0
        ],
        "custom:/vehicle/vin": [
          1,
          0
        ],
        "custom:/vehicle/odometerKm": [
          1,
          0
        ],
        "custom:/serviceType": [
          1,
          0
        ],
        "custom:/partsReplaced/*/partName": [
          0,
          1
        ],
        "custom:/partsReplaced/*/lineTotal": [
          0,
          1
        ],
        "custom:/labourHours": [
          0,
          1
        ],
        "custom:/totalIncGst": [
          0,
          1
        ],
        "custom:/nextServiceDueKm": [
          1,
          0
        ],
        "custom:/nextServiceDueDate": [
          1,
          0
        ],
        "custom:/logbookStamped": [
          1,
          0
        ],
        "custom:/exporter/name": [
          0,
          1
        ],
        "custom:/goods/*/description": [
          0,
          5
        ],
        "custom:/goods/*/grossWeightKg": [
          0,
          2
        ],
        "custom:/policyNumber": [
          1,
          0
        ],
        "custom:/policyholder/name": [
          1,
          0
        ],
        "custom:/vehicleRegistration": [
          0,
          1
        ],
        "custom:/coverType": [
          1,
          0
        ],
        "custom:/namedDrivers/*/name": [
          0,
          3
        ],
        "custom:/noClaimsBonusYears": [
          1,
          0
        ],
        "custom:/totalPremium": [
          1,
          0
        ],
        "custom:/currency": [
          3,
          0
        ],
        "custom:/businessUseCovered": [
          0,
          1
        ],
        "custom:/hotelName": [
          1,
          0
        ],
        "custom:/charges/*/description": [
          0,
          8
        ],
        "custom:/charges/*/amount": [
          0,
          1
        ],
        "custom:/totalAmount": [
          1,
          0
        ],
        "custom:/studentName": [
          1,
          0
        ],
        "custom:/matricNumber": [
          1,
          0
        ],
        "custom:/programme": [
          1,
          0
        ],
        "custom:/session": [
          1,
          0
        ],
        "custom:/semester": [
          1,
          0
        ],
        "custom:/totalUnits": [
          1,
          0
        ],
        "custom:/gpa": [
          1,
          0
        ],
        "custom:/cgpa": [
          1,
          0
        ],
        "custom:/academicStanding": [
          1,
          0
        ],
        "custom:/supplier/nip": [
          1,
          0
        ],
        "custom:/passengerName": [
          1,
          0
        ],
        "custom:/flightNumber": [
          1,
          0
        ],
        "custom:/departureDate": [
          1,
          0
        ],
        "custom:/departureTime": [
          1,
          0
        ],
        "custom:/boardingTime": [
          1,
          0
        ],
        "custom:/gate": [
          1,
          0
        ],
        "custom:/seat": [
          1,
          0
        ],
        "custom:/baggageAllowanceKg": [
          1,
          0
        ],
        "custom:/containers/*/containerNumber": [
          0,
          7
        ],
        "custom:/containers/*/sealNumber": [
          0,
          8
        ],
        "custom:/containers/*/grossWeightKg": [
          0,
          2
        ],
        "custom:/containers/*/volumeCbm": [
          0,
          2
        ],
        "custom:/containers/*/sizeType": [
          0,
          2
        ],
        "custom:/freightTerms": [
          0,
          1
        ],
        "custom:/employee/name": [
          1,
          0
        ],
        "custom:/payDate": [
          1,
          0
        ],
        "custom:/paye": [
          0,
          1
        ],
        "custom:/uifEmployee": [
          1,
          0
        ],
        "custom:/netPay": [
          1,
          0
        ],
        "custom:/annualLeaveBalanceDays": [
          1,
          0
        ],
        "invoice:/invoiceNumber": [
          10,
          0
        ],
        "invoice:/issueDate": [
          9,
          0
        ],
        "invoice:/dueDate": [
          10,
          0
        ],
        "invoice:/vendor/name": [
          5,
          5
        ],
        "invoice:/vendor/address": [
          6,
          2
        ],
        "invoice:/vendor/taxId": [
          9,
          0
        ],
        "invoice:/customer/name": [
          7,
          1
        ],
        "invoice:/customer/address": [
          5,
          1
        ],
        "invoice:/lineItems/*/description": [
          32,
          15
        ],
        "invoice:/lineItems/*/quantity": [
          34,
          6
        ],
        "invoice:/lineItems/*/unitPrice": [
          34,
          6
        ],
        "invoice:/lineItems/*/amount": [
          37,
          10
        ],
        "invoice:/subtotal": [
          7,
          0
        ],
        "invoice:/tax": [
          6,
          1
        ],
        "invoice:/total": [
          8,
          1
        ],
        "invoice:/currency": [
          10,
          0
        ],
        "invoice:/customer/taxId": [
          0,
          3
        ],
        "job-posting:/title": [
          7,
          3
        ],
        "job-posting:/company": [
          8,
          2
        ],
        "job-posting:/employmentType": [
          7,
          1
        ],
        "job-posting:/salaryRange/min": [
          7,
          1
        ],
        "job-posting:/salaryRange/max": [
          6,
          2
        ],
        "job-posting:/salaryRange/currency": [
          8,
          0
        ],
        "job-posting:/salaryRange/period": [
          8,
          0
        ],
        "job-posting:/requirements/*": [
          37,
          0
        ],
        "job-posting:/responsibilities/*": [
          37,
          0
        ],
        "job-posting:/benefits/*": [
          38,
          0
        ],
        "job-posting:/remote": [
          7,
          0
        ],
        "job-posting:/postedDate": [
          9,
          0
        ],
        "job-posting:/location": [
          3,
          3
        ],
        "meeting-notes:/title": [
          3,
          7
        ],
        "meeting-notes:/topicsDiscussed/*": [
          29,
          4
        ],
        "meeting-notes:/decisions/*": [
          17,
          0
        ],
        "meeting-notes:/actionItems/*/owner": [
          11,
          0
        ],
        "meeting-notes:/actionItems/*/task": [
          16,
          10
        ],
        "meeting-notes:/openQuestions/*": [
          8,
          0
        ],
        "meeting-notes:/date": [
          9,
          0
        ],
        "meeting-notes:/attendees/*": [
          18,
          2
        ],
        "meeting-notes:/actionItems/*/dueDate": [
          7,
          1
        ],
        "receipt:/merchant": [
          9,
          1
        ],
        "receipt:/address": [
          7,
          2
        ],
        "receipt:/date": [
          10,
          0
        ],
        "receipt:/time": [
          10,
          0
        ],
        "receipt:/items/*/description": [
          30,
          13
        ],
        "receipt:/items/*/quantity": [
          30,
          13
        ],
        "receipt:/items/*/unitPrice": [
          30,
          13
        ],
        "receipt:/items/*/amount": [
          30,
          13
        ],
        "receipt:/subtotal": [
          7,
          1
        ],
        "receipt:/total": [
          9,
          0
        ],
        "receipt:/currency": [
          10,
          0
        ],
        "receipt:/paymentMethod": [
          6,
          1
        ],
        "receipt:/tax": [
          4,
          1
        ],
        "receipt:/tip": [
          2,
          0
        ],
        "renewal:/documentKindGuess": [
          6,
          4
        ],
        "renewal:/vendorName/value": [
          6,
          0
        ],
        "renewal:/product/value": [
          4,
          2
        ],
        "renewal:/currency/value": [
          10,
          0
        ],
        "renewal:/billingFrequency/value": [
          6,
          1
        ],
        "renewal:/seatCount/value": [
          6,
          0
        ],
        "renewal:/contractStartDate/value": [
          5,
          1
        ],
        "renewal:/contractEndDate/value": [
          5,
          1
        ],
        "renewal:/renewalDate/value": [
          5,
          1
        ],
        "renewal:/noticePeriodDays/value": [
          3,
          0
        ],
        "renewal:/noticePeriodText/value": [
          4,
          2
        ],
        "renewal:/autoRenewalLanguage/value": [
          9,
          0
        ],
        "renewal:/autoRenewal/value": [
          9,
          0
        ],
        "renewal:/paymentTermsDays/value": [
          7,
          0
        ],
        "renewal:/priceEscalationText/value": [
          5,
          0
        ],
        "renewal:/billingAmount/value": [
          3,
          5
        ],
        "renewal:/committedSpend/value": [
          1,
          0
        ]
      },
      "base": 0.7963875205254516,
      "weights": {
        "agree": 0.7773,
        "answer_failed": -0.1884,
        "answer_held": 0.2775,
        "bias": -0.9596,
        "checks_failed": 0.1108,
        "checks_held": -0.0882,
        "code_without_figure": -0.4159,
        "conflict": -0.6943,
        "coverage": 2.025,
        "derived": 0.1101,
        "heading_swallowed": -0.7801,
        "how_value": 0.4559,
        "item_failed": 0.5458,
        "item_held": -0.248,
        "item_smell": -0.8608,
        "kind_date": 0.4892,
        "kind_flag": 0.2803,
        "kind_long": -0.3398,
        "kind_number": -0.0537,
        "kind_short": -0.376,
        "list_reconciles": -0.1618,
        "list_unreconciled": 0.4204,
        "non_latin": -0.1352,
        "ocr_doubt": 0,
        "prior": 0.399,
        "rank": 0.2151,
        "sparse_item": -1.5913,
        "text_with_figures": -0.9091,
        "unplaced": 0,
        "words_as_figures": -0.2515
      }
    },
    "anthropic": {
      "weights": {
        "prior": 1,
        "unplaced": -4,
        "checks_failed": -1,
        "checks_held": 0.3,
        "how_approximate": -0.8,
        "dissimilar": -3
      },
      "finders": {},
      "fields": {},
      "base": 0.9
    }
  }
};
