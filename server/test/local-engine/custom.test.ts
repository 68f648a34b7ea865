import { extractCustom } from '../../src/extraction/engines/local/index.js';

describe('custom schemas', () => {
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

  it('answers every property as null or [] for a document that states none of them', () => {
    const schema = { type: 'object', properties: { sku: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, stock: { type: 'integer' } } };
    expect(extractCustom(schema, 'Nothing relevant here.')).toEqual({ sku: null, tags: [], stock: null });
  });
});
