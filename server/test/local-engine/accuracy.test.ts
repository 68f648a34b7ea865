// Accuracy in CI: every labelled set in the repository (the route folders of fixtures/, fresh..fresh9, cal8, and
// ../shared/corpus) is scored with the repository's scorer against the offline engine, in-process, and each set's
// field F1 and precision, and each route's F1, must stay at or above the floor recorded in accuracy/floors.ts.
import { scoreSet, type SetScore } from './accuracy/score.js';
import { SETS, setExists } from './accuracy/sets.js';
import { FLOORS } from './accuracy/floors.js';
import { scoreTrust, trustOfSet } from './accuracy/trust.js';

const scores = new Map<string, SetScore>();
const score = (name: string) => {
  if (!scores.has(name)) scores.set(name, scoreSet(SETS[name]!));
  return scores.get(name)!;
};
/** What a failure shows: the figure, its floor, and the fields the set got wrong. */
const explain = (name: string, what: string, got: number, floor: number) =>
  `${name} ${what} ${got.toFixed(3)} is below its floor ${floor.toFixed(2)}; misses:\n${score(name).misses.join('\n')}`;

describe('offline engine accuracy floors', () => {
  it('has a floor for every set, and every set is present', () => {
    expect(Object.keys(FLOORS).sort()).toEqual(Object.keys(SETS).sort());
    for (const name of Object.keys(SETS)) expect([name, setExists(name)]).toEqual([name, true]);
  });

  describe.each(Object.keys(SETS))('%s', (name) => {
    it('overall field F1 and precision', () => {
      const s = score(name), floor = FLOORS[name]!;
      if (s.f1 < floor.f1) throw new Error(explain(name, 'F1', s.f1, floor.f1));
      if (s.precision < floor.precision) throw new Error(explain(name, 'precision', s.precision, floor.precision));
      if (s.groundedQuotes !== null) expect(s.groundedQuotes).toBe(1);
    });

    it('F1 of every route, each with a floor', () => {
      const s = score(name), floor = FLOORS[name]!;
      expect(Object.keys(s.routes).sort()).toEqual(Object.keys(floor.routes).sort());
      for (const [route, r] of Object.entries(s.routes)) {
        if (r.f1 < floor.routes[route]!) throw new Error(explain(name, `${route} F1`, r.f1, floor.routes[route]!));
      }
    });

    it('evidence on at least 99% of values, quotes that hold their value, and a calibrated confidence where measured', () => {
      const t = scoreTrust(trustOfSet(SETS[name]!)), floor = FLOORS[name]!;
      expect(t.evidenceShare).toBeGreaterThanOrEqual(0.99);
      expect(t.spanExact).toBeGreaterThanOrEqual(0.98);
      if (floor.trust) {
        expect(t.ece).toBeLessThanOrEqual(floor.trust.maxEce);
        expect(t.auroc).toBeGreaterThanOrEqual(floor.trust.auroc);
      }
    });
  });
});
