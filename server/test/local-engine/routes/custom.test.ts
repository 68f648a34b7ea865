// The offline engine's custom route: one describe per field of its answer (`whole answer` for a test of several at once),
// each test named for the shape of document it reads.
import type { JsonSchema } from '../../../src/extraction/engines/engine.js';
import { extractCustom } from '../../../src/extraction/engines/local/index.js';

describe("custom: headings in plain words and asides", () => {
  it('reads `You will need:` as the ingredients and skips the figure in parentheses', () => {
    const out = extractCustom({
      type: 'object',
      properties: {
        ingredients: { type: 'array', items: { type: 'string' } },
        ovenTemperatureC: { type: 'number', description: 'Oven temperature in Celsius' },
      },
    }, 'PLUM CAKE\n\nBake: 40 min at 175 °C (155 °C fan)\n\nYou will need:\n- 500 g plums\n- 200 g flour\n');
    expect(out).toEqual({ ingredients: ['500 g plums', '200 g flour'], ovenTemperatureC: 175 });
  });
});

describe("custom: labels shared between sibling properties", () => {
  describe("custom: labels shared between sibling properties", () => {
    const schema = {
      type: 'object',
      properties: {
        plate: { type: 'string', description: 'Vehicle registration number' },
        vehicle: { type: 'string', description: 'Make and model' },
        street: { type: 'string', description: 'Where it happened' },
        issuedTime: { type: 'string', description: 'HH:MM' },
        discountedFine: { type: 'number', description: 'Reduced amount for early payment' },
      },
    };

    const text = 'PENALTY NOTICE\n\nVehicle registration: KX19 LMN\nMake/model: Ford Fiesta\nLocation: Marine Parade\nObserved: 14:32 on 9 February 2026\n\nAmount due: £70.00 (reduced to £35.00 if paid within 14 days)';

    it('gives a label to the property whose words explain all of it, and takes no time of day by elimination', () => {
      const out = extractCustom(schema, text);
      // `Observed: 14:32` is the only time, but nothing says it is the time the notice was issued (issue 20: no guesses).
      expect([out.plate, out.vehicle, out.street, out.issuedTime]).toEqual(['KX19 LMN', 'Ford Fiesta', 'Marine Parade', null]);
    });
  });

  describe("custom: labels shared between sibling properties", () => {
    const schema = {
      type: 'object',
      properties: {
        plate: { type: 'string', description: 'Vehicle registration number' },
        vehicle: { type: 'string', description: 'Make and model' },
        street: { type: 'string', description: 'Where it happened' },
        issuedTime: { type: 'string', description: 'HH:MM' },
        discountedFine: { type: 'number', description: 'Reduced amount for early payment' },
      },
    };

    const text = 'PENALTY NOTICE\n\nVehicle registration: KX19 LMN\nMake/model: Ford Fiesta\nLocation: Marine Parade\nObserved: 14:32 on 9 February 2026\n\nAmount due: £70.00 (reduced to £35.00 if paid within 14 days)';

    it('does not take a figure whose neighbours only echo the description', () => {
      expect(extractCustom(schema, text).discountedFine).toBeNull();
    });
  });
});

describe("custom schemas: date ranges", () => {
  it('gives a range\'s first date to the start property and its last to the end property', () => {
    const schema = { type: 'object', properties: { startDate: { type: 'string', format: 'date' }, endDate: { type: 'string', format: 'date' }, validUntil: { type: 'string', format: 'date' } } };
    const out = extractCustom(schema, 'Exhibition booking\n\nStand dates: 3 October 2026 – 6 October 2026\nQuote valid: 1 August 2026 until 31 August 2026\n');
    expect(out).toEqual({ startDate: '2026-10-03', endDate: '2026-10-06', validUntil: '2026-08-31' });
  });
});

describe("custom schemas: labels of initials", () => {
  it('reads `P.O. No.` as purchaseOrderNumber and `W/O nr.` as workOrderNumber', () => {
    const schema = { type: 'object', properties: { purchaseOrderNumber: { type: 'string' }, workOrderNumber: { type: 'string' }, technician: { type: 'string' } } };
    const out = extractCustom(schema, 'FIELD SERVICE SHEET\n\nP.O. No.: 77-4411\nW/O nr.: HX-2026-88\nTechnician: Ravi Sood\n');
    expect(out).toEqual({ purchaseOrderNumber: '77-4411', workOrderNumber: 'HX-2026-88', technician: 'Ravi Sood' });
  });
});

describe("custom schemas: British and American spellings", () => {
  it('reads a `Labour` row for laborHours and `Colour` for color', () => {
    const schema = { type: 'object', properties: { laborHours: { type: 'number' }, color: { type: 'string' } } };
    const out = extractCustom(schema, 'REPAIR NOTE\n\nColour: Racing green\n\nLabour            1,5 h x 64,00          96,00\nParts                                    12,40\n');
    expect(out).toEqual({ laborHours: 1.5, color: 'Racing green' });
  });
});

describe("custom schemas: letters", () => {
  it('completes a first name from a salutation with the whole name the document writes, and gives a person without their role in brackets', () => {
    const schema = { type: 'object', properties: { clientName: { type: 'string', description: 'Full name of the client' }, therapist: { type: 'string' } } };
    const text = 'To: Ingrid Halvorsen <ingrid@example.net>\nSubject: Your appointment\n\nHi Ingrid,\n\nTherapist:   Ms Dana Ruiz (Osteopath)\nSee you on Monday.\n';
    expect(extractCustom(schema, text)).toEqual({ clientName: 'Ingrid Halvorsen', therapist: 'Ms Dana Ruiz' });
  });

  it('takes a person\'s name from the salutation, never the title line, and no title from a line of dates', () => {
    const schema = { type: 'object', properties: { guestName: { type: 'string' }, eventTitle: { type: 'string' }, startDate: { type: 'string', format: 'date' } } };
    const out = extractCustom(schema, 'Harbourside Hotel – Booking confirmation\n\nDear Mr Tomasz Nowak,\n\nThank you for your booking.\n\nEvent dates: Friday 2 October 2026 to Sunday 4 October 2026\n');
    expect(out).toEqual({ guestName: 'Tomasz Nowak', eventTitle: null, startDate: '2026-10-02' });
  });
});

describe("custom schemas: bilingual confirmations", () => {
  it('reads columns apart by wide gaps, bilingual labels, the letterhead as the named thing, a name without its title and a date stated in a sentence', () => {
    const schema = { type: 'object', properties: {
      campsiteName: { type: 'string' }, guestName: { type: 'string' }, adults: { type: 'integer' },
      arrival: { type: 'string', description: 'Arrival date, YYYY-MM-DD' }, freeCancellationUntil: { type: 'string', format: 'date' },
    } };
    const text = [
      'CAMPING LES PINS ***',
      'Route de la Plage, 40200 Mimizan',
      '',
      'Client / Guest:   Dr Jonas Weber              Adultes / Adults: 3',
      'Arrivée / Arrival:      samedi 18.07.2026 (à partir de 14:00)',
      '',
      'Annulation gratuite jusqu\'au 04.07.2026. Free cancellation until 4 July 2026.',
    ].join('\n');
    expect(extractCustom(schema, text)).toEqual({ campsiteName: 'CAMPING LES PINS', guestName: 'Jonas Weber', adults: 3, arrival: '2026-07-18', freeCancellationUntil: '2026-07-04' });
  });
});

describe("custom schemas: identifiers, periods and figures of dates", () => {
  it('gives `Member No` to the number and `Member` to the name, a period to its start and end, and no number from a date', () => {
    const schema = { type: 'object', properties: {
      memberName: { type: 'string' }, memberNumber: { type: 'string' },
      coverPeriod: { type: 'object', properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } } },
      premium: { type: 'number', description: 'Premium for this period' },
    } };
    const text = 'GYM MEMBERSHIP STATEMENT\n\nMember:        Alva Berg            Member No:    000781\nCover Period:  01/03/2026 to 31/03/2026\nPremium due:   £42.00\n';
    expect(extractCustom(schema, text)).toEqual({ memberName: 'Alva Berg', memberNumber: '000781', coverPeriod: { start: '2026-03-01', end: '2026-03-31' }, premium: 42 });
  });
});

describe("custom schemas: lists as tables", () => {
  it('gives a column headed by a member\'s own name to that member, before one its description\'s words name', () => {
    const schema = { type: 'object', properties: {
      trains: { type: 'array', items: { type: 'object', properties: {
        from: { type: 'string', description: 'Departure station' }, to: { type: 'string', description: 'Arrival station' }, date: { type: 'string', format: 'date' },
      } } },
    } };
    const text = 'RAIL PASS ITINERARY\n\nTRAIN    DATE      FROM        TO          DEP     ARR\nEC 51    03MAY26   Basel       Milano      07:33   11:50\nFR 9521  05MAY26   Milano      Roma        09:10   12:15\n';
    expect(extractCustom(schema, text).trains).toEqual([{ from: 'Basel', to: 'Milano', date: '2026-05-03' }, { from: 'Milano', to: 'Roma', date: '2026-05-05' }]);
  });

  it('reads rows under a header whose first cell names the list: description from the first cell, amount from the last figure', () => {
    const schema = { type: 'object', properties: {
      charges: { type: 'array', description: 'Each charge line', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
    } };
    const text = 'UTILITY BILL\n\nCHARGES                        Units     Rate       Amount\nStanding charge 2x               30      0.45        13.50\nEnergy used                     412      0.27       111.24\n\nTotal Charges                                      124.74\n';
    expect(extractCustom(schema, text)).toEqual({ charges: [{ description: 'Standing charge 2x', amount: 13.5 }, { description: 'Energy used', amount: 111.24 }] });
  });
});

describe("custom schemas: money over counts, exclusions, an e-mail sender; minutes without an agenda", () => {
  it('prefers a money figure for a rate, ignores what a description excludes, and names the sender without the address', () => {
    const schema = { type: 'object', properties: {
      lodgeName: { type: 'string' },
      ratePerNight: { type: 'number' },
      totalPrice: { type: 'number', description: 'Total price of the stay, excluding tourist levy' },
    } };
    const text = 'From: Lodge Birkenhain <stay@birkenhain.example>\nSubject: Your booking\n\nNights:           3\nRate:             € 120,00 per night\nTotal stay:       € 360,00\nTourist levy:     € 9,00\n';
    expect(extractCustom(schema, text)).toEqual({ lodgeName: 'Lodge Birkenhain', ratePerNight: 120, totalPrice: 360 });
  });
});

describe("custom schemas", () => {
  it('matches labels by the description words when the property name shares none', () => {
    const out = extractCustom({
      type: 'object',
      properties: {
        petName: { type: 'string' },
        clinician: { type: 'string', description: 'Veterinarian seeing the pet' },
        checkIn: { type: 'string', description: 'Arrival date, YYYY-MM-DD' },
        reasonForVisit: { type: 'string' },
        thingsToBring: { type: 'array', items: { type: 'string' } },
      },
    }, 'Pet: Biscuit (Labrador)\nVet: Dr. Anna Weiss\nArrival: March 3rd, 2026\nReason: check-up\n\nPlease bring:\n- Booklet\n- Lead');
    expect(out).toEqual({ petName: 'Biscuit', clinician: 'Dr. Anna Weiss', checkIn: '2026-03-03', reasonForVisit: 'check-up', thingsToBring: ['Booklet', 'Lead'] });
  });

  it('does not fill a property from a generic description word alone', () => {
    const out = extractCustom({ type: 'object', properties: { checkOut: { type: 'string', description: 'Departure date' } } }, 'Date: 2026-03-01\nArrival: 2026-03-02');
    expect(out.checkOut).toBeNull();
  });

  describe("custom schemas", () => {
    const text = [
      'Volunteer beach clean-up',
      '',
      'Meeting point: Harbour car park, Whitby',
      'Date: Saturday 6 June 2026',
      'Starts: 10:00 am',
      'Spaces: 40 volunteers max',
      'Gloves provided: yes',
      'Organiser: Coastwise Trust, 01947 555 210',
      '',
      'Bring:',
      '- Water bottle',
      '- Sun cream',
    ].join('\n');

    it('fills every property by label, typed by the schema, null when absent', () => {
      const schema = {
        type: 'object',
        properties: {
          title: { type: 'string' },
          location: { type: 'string', description: 'Where to meet' },
          date: { type: 'string', description: 'YYYY-MM-DD' },
          startTime: { type: 'string', description: 'HH:MM' },
          capacity: { type: 'integer' },
          glovesProvided: { type: 'boolean' },
          fee: { type: ['number', 'null'] },
          thingsToBring: { type: 'array', items: { type: 'string' }, description: 'What volunteers should bring' },
          organiser: { type: 'object', properties: { name: { type: 'string' }, phone: { type: 'string' } } },
        },
      };
      expect(extractCustom(schema, text)).toEqual({
        title: 'Volunteer beach clean-up',
        location: 'Harbour car park, Whitby',
        date: '2026-06-06',
        startTime: '10:00',
        capacity: 40,
        glovesProvided: true,
        fee: null,
        thingsToBring: ['Water bottle', 'Sun cream'],
        organiser: { name: 'Coastwise Trust', phone: '01947 555 210' },
      });
    });
  });

  describe("custom schemas", () => {
    const text = [
      'Volunteer beach clean-up',
      '',
      'Meeting point: Harbour car park, Whitby',
      'Date: Saturday 6 June 2026',
      'Starts: 10:00 am',
      'Spaces: 40 volunteers max',
      'Gloves provided: yes',
      'Organiser: Coastwise Trust, 01947 555 210',
      '',
      'Bring:',
      '- Water bottle',
      '- Sun cream',
    ].join('\n');

    it('answers every property as null or [] for a document that states none of them', () => {
      const schema = { type: 'object', properties: { sku: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, stock: { type: 'integer' } } };
      expect(extractCustom(schema, 'Nothing relevant here.')).toEqual({ sku: null, tags: [], stock: null });
    });
  });
});

describe("custom name from the title line", () => {
  describe("custom name from the title line", () => {
    const schema = { type: 'object', properties: { eventName: { type: 'string' }, capacity: { type: 'integer' } } } as JsonSchema;

    it.each([
      ['Harbour Book Fair, 300 seats', 'Harbour Book Fair'],
      ['Winter Code Retreat, 40 places, 9 January 2027', 'Winter Code Retreat'],
      ['Smith, Jones and Partners Summit', 'Smith, Jones and Partners Summit'],
    ])('%j', (text, want) => expect(extractCustom(schema, text).eventName).toBe(want));
  });
});
