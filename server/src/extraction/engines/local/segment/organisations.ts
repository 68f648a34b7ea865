// How organisation names end.

/** A name ending in a legal form (`Acme B.V.`, `Nordlicht GmbH`, `NORTHGATE HOUSING CO-OPERATIVE LTD`): an organisation. */
export const LEGAL_FORM_END = /\b(?:Inc|LLC|Ltd|LTD|Limited|LIMITED|GmbH|GMBH|AG|AB|ApS|Oy|BV|B\.V|NV|N\.V|SA|S\.A|SAS|SARL|S\.r\.l|SpA|S\.p\.A|Pty|PLC|plc|LLP|Corp|Corporation|INC|LLC)\.?$/;
