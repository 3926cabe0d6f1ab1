#!/usr/bin/env python3
"""Check testdata/elaipbench/sample.jsonl (and sample.json) against the
published ElaipBench schema and against the sample papers in testdata/papers.

Usage: python3 testdata/elaipbench/validate.py   (exit status 1 on any error)

Checks: every line is a JSON object with exactly the six published fields, all
strings; question_type is SA-MCQ or MA-MCQ; the question has options A-D
inline; the answer is letters A-D; every evidence excerpt (relevant_passage
split on newlines) occurs verbatim in the row's paper_content and in the
paper file itself (md/txt verbatim, html after tag stripping, pdf via
pdftotext, both with whitespace collapsed); paper_content is the same on every
row of a paper and, for md/txt, equals the file. Quirks that a loader must
accept (MA-MCQ with one letter or with ABCD, duplicate rows) are reported,
not failed.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PAPERS = os.path.join(HERE, '..', 'papers')
FIELDS = ['paper_id', 'question_type', 'question', 'answer', 'relevant_passage', 'paper_content']

errors = []


def err(msg):
    errors.append(msg)


def ws(s):
    return ' '.join(s.split())


def html_text(raw):
    raw = re.sub(r'(?is)<(script|style)\b.*?</\1>', ' ', raw)
    raw = re.sub(r'(?s)<[^>]+>', ' ', raw)
    return ws(html.unescape(raw))


def paper_file_text(pid):
    """Returns (kind, text) for the paper file of pid, or (None, None)."""
    for ext in ('md', 'txt', 'html', 'pdf'):
        p = os.path.join(PAPERS, f'{pid}.{ext}')
        if not os.path.exists(p):
            continue
        if ext in ('md', 'txt'):
            return ext, open(p, encoding='utf-8').read()
        if ext == 'html':
            return ext, html_text(open(p, encoding='utf-8').read())
        if shutil.which('pdftotext') is None:
            return 'pdf-skipped', None
        out = subprocess.run(['pdftotext', '-enc', 'UTF-8', p, '-'], capture_output=True, check=True)
        return ext, ws(out.stdout.decode('utf-8'))
    return None, None


def main():
    path = os.path.join(HERE, 'sample.jsonl')
    rows = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                err(f'line {n}: not JSON: {e}')
                continue
            if not isinstance(obj, dict):
                err(f'line {n}: not an object')
                continue
            if list(obj.keys()) != FIELDS:
                if sorted(obj.keys()) != sorted(FIELDS):
                    err(f'line {n}: fields {sorted(obj.keys())} != {FIELDS}')
            for k in FIELDS:
                if not isinstance(obj.get(k), str):
                    err(f'line {n}: field {k} missing or not a string')
            rows.append((n, obj))

    quirks = []
    files = {}
    contents = {}
    seen = {}
    excerpts = 0
    for n, r in rows:
        if any(not isinstance(r.get(k), str) for k in FIELDS):
            continue
        pid, qt, q, a = r['paper_id'], r['question_type'], r['question'], r['answer']
        if qt not in ('SA-MCQ', 'MA-MCQ'):
            err(f'line {n}: question_type {qt!r}')
        if not re.fullmatch(r'[A-D]+', a) or len(set(a)) != len(a) or ''.join(sorted(a)) != a:
            err(f'line {n}: answer {a!r} is not sorted distinct letters A-D')
        if qt == 'SA-MCQ' and len(a) != 1:
            err(f'line {n}: SA-MCQ with answer {a!r}')
        if qt == 'MA-MCQ' and len(a) == 1:
            quirks.append(f'line {n}: MA-MCQ with a single answer letter ({a})')
        if qt == 'MA-MCQ' and a == 'ABCD':
            quirks.append(f'line {n}: MA-MCQ with all four letters')
        for L in 'ABCD':
            if not re.search(rf'(?m)^{L}\. \S', q):
                err(f'line {n}: option {L} not found at a line start in question')
        key = json.dumps(r, sort_keys=True)
        if key in seen:
            quirks.append(f'line {n}: exact duplicate of line {seen[key]}')
        else:
            seen[key] = n
        if pid in contents and contents[pid] != r['paper_content']:
            err(f'line {n}: paper_content differs from other rows of {pid}')
        contents.setdefault(pid, r['paper_content'])
        if pid not in files:
            files[pid] = paper_file_text(pid)
        kind, ftext = files[pid]
        if kind is None:
            err(f'line {n}: no paper file for {pid} in {PAPERS}')
        elif kind in ('md', 'txt') and ftext != r['paper_content']:
            err(f'line {n}: paper_content differs from the {kind} file of {pid}')
        for ex in r['relevant_passage'].split('\n'):
            if not ex.strip():
                err(f'line {n}: empty evidence excerpt')
                continue
            excerpts += 1
            if ex not in r['paper_content']:
                err(f'line {n}: excerpt not in paper_content: {ex[:70]!r}')
            if kind in ('md', 'txt'):
                stripped = re.sub(r'(?m)^#+ ', '', ftext)
                if ex not in ftext or ex not in stripped:
                    err(f'line {n}: excerpt not in {pid}.{kind}: {ex[:70]!r}')
            elif kind in ('html', 'pdf'):
                if ws(ex) not in ftext:
                    err(f'line {n}: excerpt not in text of {pid}.{kind}: {ex[:70]!r}')

    jpath = os.path.join(HERE, 'sample.json')
    if os.path.exists(jpath):
        arr = json.load(open(jpath, encoding='utf-8'))
        if arr != [r for _, r in rows]:
            err('sample.json is not the same rows as sample.jsonl')
        else:
            print(f'sample.json: {len(arr)} rows, identical to sample.jsonl')
    else:
        err('sample.json missing')

    per_paper = Counter(r['paper_id'] for _, r in rows)
    types = Counter(r['question_type'] for _, r in rows)
    print(f'sample.jsonl: {len(rows)} rows, {len(per_paper)} papers, {excerpts} evidence excerpts checked')
    for pid, c in sorted(per_paper.items()):
        print(f'  {pid} ({files.get(pid, (None,))[0]}): {c} rows')
    print('  types: ' + ', '.join(f'{k} {v}' for k, v in sorted(types.items())))
    print('  answers: ' + ', '.join(f'{k} {v}' for k, v in sorted(Counter(r['answer'] for _, r in rows).items())))
    for qk in quirks:
        print('quirk: ' + qk)
    for e in errors:
        print('ERROR: ' + e)
    print(f'{len(errors)} errors')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
