// zod issues as the messages people need: "field 'epochs': expected an integer from 1 to 100000,
// got 1.5". zod's own messages say only "Invalid input" for a union (microBatch: null, a request
// whose parameters match none of its shapes); this digs into the union's branch that got furthest.
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

function at(root: unknown, path: Path): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

const TYPE_NAMES: Record<string, string> = { number: 'a number', int: 'an integer', string: 'a string', boolean: 'true or false', object: 'an object', array: 'an array', bigint: 'an integer' };

function bound(i: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = i.code === 'too_small';
  const limit = small ? i.minimum : i.maximum;
  const incl = i.inclusive !== false;
  const what = i.origin === 'array' || i.origin === 'set' ? ' entries' : i.origin === 'string' ? ' characters' : '';
  if (small) return `${incl ? 'at least' : 'more than'} ${String(limit)}${what}`;
  return `${incl ? 'at most' : 'less than'} ${String(limit)}${what}`;
}

/** What the issue expected, in words (null: only zod's message says). */
function expectation(i: Issue): string | null {
  switch (i.code) {
    case 'invalid_type': return TYPE_NAMES[i.expected] ?? String(i.expected);
    case 'too_small':
    case 'too_big': return bound(i);
    case 'invalid_value': return i.values.length === 1 ? JSON.stringify(i.values[0]) : `one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format': return `a ${i.format} string`;
    case 'not_multiple_of': return `a multiple of ${String(i.divisor)}`;
    default: return null;
  }
}

/** The issue at the deepest path in the union's branches: the branch the input was meant for. */
function unionBranch(i: Extract<Issue, { code: 'invalid_union' }>): Issue[] | null {
  const branches = i.errors.filter((b) => b.length > 0);
  if (branches.length === 0) return null;
  const depth = (b: Issue[]) => Math.max(...b.map((x) => x.path.length)) - (b.some((x) => x.code === 'unrecognized_keys') ? 0.5 : 0);
  const best = Math.max(...branches.map(depth));
  const deepest = branches.filter((b) => depth(b) === best);
  // Several branches fail at the same place (microBatch: a number or "auto"): list what each expected.
  if (deepest.length > 1 && deepest.every((b) => b.length === 1 && b[0]!.path.length === 0)) return null;
  return deepest[0]!;
}

/** zod's own wording; any other message was written for the schema and says more. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized)/;

/** The issue's field (through a union, the branch's) and what is wrong with it, without the field. */
export function describeIssue(i: Issue, root: unknown = NO_ROOT, prefix: Path = []): { field: string; text: string } {
  const path = [...prefix, ...i.path];
  const field = path.map(String).join('.');
  if (i.code === 'invalid_union') {
    const branch = unionBranch(i);
    if (branch) return describeIssue(branch[0]!, root, path);
    const alts = i.errors.map((b) => (b[0] ? expectation(b[0]) : null)).filter((x): x is string => !!x);
    if (alts.length) return { field, text: `expected ${[...new Set(alts)].join(' or ')}${got(root, path)}` };
    return { field, text: i.message };
  }
  if (i.code === 'unrecognized_keys') return { field, text: `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `'${k}'`).join(', ')}` };
  const want = expectation(i);
  if (!want || !ZOD_WORDING.test(i.message)) return { field, text: i.message };
  return { field, text: `expected ${want}${got(root, path, i.code === 'too_small' || i.code === 'too_big')}` };
}

function one(i: Issue, root: unknown, prefix: Path): string {
  const d = describeIssue(i, root, prefix);
  return `field '${d.field || '(root)'}': ${d.text}`;
}

const NO_ROOT = Symbol('no input');

function got(root: unknown, path: Path, size = false): string {
  if (root === NO_ROOT) return '';
  const v = at(root, path);
  if (size && Array.isArray(v)) return `, got ${v.length} entries`;
  if (size && typeof v === 'string') return `, got ${v.length} characters`;
  return `, got ${show(v)}`;
}

/**
 * "field 'a.b': expected X, got Y" for the first issues (at most 3), joined by '; '. `root` is
 * the value that was parsed, to say what was given (left out: the messages say only what was expected).
 */
export function formatZodIssues(issues: readonly Issue[], root: unknown = NO_ROOT, prefix: Path = []): string {
  return issues.slice(0, 3).map((i) => one(i, root, prefix)).join('; ');
}
