#!/usr/bin/env python3
"""Brings the contract's extraction examples up to date with the service's answers: each example's `evidence` and
`withheld` (spec/routes/*.tsp) become what the service answered for it. The answers come from the examples test:

  EXAMPLES_ACTUAL=/tmp/actual.jsonl NODE_OPTIONS=--experimental-vm-modules npx jest test/contract/examples.test.ts
  python3 scripts/update-examples.py /tmp/actual.jsonl && npm run generate

Only `evidence` and `withheld` are rewritten; a change in `data` is for a person to look at (the test shows it)."""
import glob, json, re, sys

def literal(v, indent):
    pad = '  ' * indent
    if isinstance(v, dict):
        if not v: return '#{}'
        items = []
        for k, x in v.items():
            key = k if re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', k) else f'`{k}`'
            items.append(f'{pad}  {key}: {literal(x, indent + 1)},')
        return '#{\n' + '\n'.join(items) + f'\n{pad}}}'
    if isinstance(v, list):
        if not v: return '#[]'
        return '#[\n' + '\n'.join(f'{pad}  {literal(x, indent + 1)},' for x in v) + f'\n{pad}]'
    if isinstance(v, bool): return 'true' if v else 'false'
    if v is None: return 'null'
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    return json.dumps(v)

def trusted(body):
    """Every object of the answer carrying `evidence`, in document order."""
    out = []
    def walk(o):
        if isinstance(o, dict):
            if 'evidence' in o and 'withheld' in o: out.append(o)
            for x in o.values(): walk(x)
        elif isinstance(o, list):
            for x in o: walk(x)
    walk(body)
    return out

def balanced_end(s, i):
    """The index after the bracket group starting at s[i] ('{' or '[')."""
    depth, j, q = 0, i, False
    while j < len(s):
        c = s[j]
        if q:
            if c == '\\': j += 1
            elif c == '"': q = False
        elif c == '"': q = True
        elif c in '{[': depth += 1
        elif c in '}]':
            depth -= 1
            if depth == 0: return j + 1
        j += 1
    raise ValueError('unbalanced')

def replace_member(s, start, end, name, value):
    """Replaces the first `name: #...` between start and end; returns the new text and the new end."""
    m = re.compile(rf'\b{name}: #').search(s, start, end)
    if not m: raise ValueError(f'no {name} in region')
    line_start = s.rfind('\n', 0, m.start()) + 1
    indent = (m.start() - line_start) // 2 if s[line_start:m.start()].strip() == '' else 4
    stop = balanced_end(s, m.end())
    new = f'{name}: {literal(value, indent)}'
    return s[:m.start()] + new + s[stop:], end + len(new) - (stop - m.start()), m.start() + len(new)

def main():
    answers = [json.loads(l) for l in open(sys.argv[1])]
    files = {f: open(f).read() for f in glob.glob('spec/routes/*.tsp')}
    for a in answers:
        found = trusted(a['body'])
        if not found: continue
        title = f'#{{ title: {json.dumps(a["title"], ensure_ascii=False)} }}'
        for f, s in files.items():
            t = s.find(title)
            if t < 0: continue
            prev = s.rfind('#{ title: ', 0, t)
            start = prev + 1 if prev >= 0 else 0
            if not re.compile(r'\bevidence: #').search(s, start, t):
                # The answer is a named value declared above the operations (a job's result): its declaration.
                continue
            pos, end = start, t
            for obj in found:
                s, end, pos = replace_member(s, pos, end, 'evidence', obj['evidence'])
                s, end, pos = replace_member(s, pos, end, 'withheld', obj['withheld'])
            files[f] = s
            print(f'{f}: {a["operationId"]} "{a["title"]}"')
    # A job's result, shared by the job and webhook examples.
    for a in answers:
        if a['operationId'] == 'getJob':
            f = 'spec/routes/jobs.tsp'; s = files[f]
            d = s.find('const jobInvoiceResult = #{')
            e = balanced_end(s, s.index('{', d))
            s, _, _ = replace_member(s, d, e, 'evidence', a['body']['result']['evidence'])
            e = balanced_end(s, s.index('{', d))
            s, _, _ = replace_member(s, d, e, 'withheld', a['body']['result']['withheld'])
            files[f] = s
            print(f'{f}: jobInvoiceResult')
    for f, s in files.items(): open(f, 'w').write(s)

main()
