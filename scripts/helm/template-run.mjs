// @ts-check
// Evaluating parsed templates with Helm's functions and values, and rendering a chart (scripts/render-helm.mjs).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import YAML from 'yaml';
import { parseTemplate, TemplateError } from './template-parse.mjs';

/** @typedef {import('./template-parse.mjs').TemplateNode} TemplateNode */
/** @typedef {import('./template-parse.mjs').Pipeline} Pipeline */
/** @typedef {import('./template-parse.mjs').Operand} Operand */
/** @typedef {import('./template-parse.mjs').Token} Token */
/** @typedef {import('./template-parse.mjs').Defines} Defines */
/**
 * What a template computes with: the chart's values (YAML, of any shape), strings, numbers, lists and maps.
 * @typedef {any} Value
 */
/** @typedef {Record<string, Value>} ValueMap */

/**
 * @param {Value} v
 * @returns {v is ValueMap}
 */
const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Go's notion of truth in templates: nil, false, 0 and empty strings, lists and maps are false. */
/** @param {Value} v */
function truth(v) {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string' || Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

/** How Go's fmt prints a float64 with %v (Helm's values are float64): exponent form from 1e+06 on. */
/** @param {number} n */
function goNumber(n) {
  if (!Number.isFinite(n)) throw new TemplateError(`cannot print ${n}`);
  if (n === 0) return '0';
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

/** What `{{ x }}` prints; maps and lists would print as Go's map[...] syntax, which no manifest wants. */
/**
 * @param {Value} v
 * @param {string} where
 * @returns {string}
 */
function printValue(v, where) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  throw new TemplateError(`${where}: printing a ${Array.isArray(v) ? 'list' : 'map'} (use toYaml)`);
}

/** @param {string} s */
function goQuote(s) {
  const quoted = JSON.stringify(s);
  if (/\\u00[0-1]/.test(quoted)) throw new TemplateError(`quote: control characters in ${quoted}`);
  return quoted;
}

/** @param {Value} v */
const toYaml = (v) =>
  v === undefined
    ? 'null'
    : YAML.stringify(v, { sortMapEntries: true, lineWidth: 0, version: '1.1' }).replace(/\n$/, '');

/**
 * @param {number} n
 * @param {Value} s
 */
const indent = (n, s) => {
  const pad = ' '.repeat(n);
  return pad + String(s).replaceAll('\n', `\n${pad}`);
};

/**
 * @param {string} format
 * @param {Value[]} args
 */
function printf(format, ...args) {
  let k = 0;
  return format.replace(/%([svdq%])/g, (all, verb) => {
    if (verb === '%') return '%';
    if (k >= args.length) throw new TemplateError(`printf "${format}": missing argument`);
    const arg = args[k++];
    if (verb === 'q') return goQuote(printValue(arg, 'printf'));
    if (verb === 'd' && !Number.isInteger(arg)) throw new TemplateError(`printf %d of ${arg}`);
    if (verb === 's' && typeof arg !== 'string')
      throw new TemplateError(`printf %s of ${JSON.stringify(arg)}`);
    return printValue(arg, 'printf');
  });
}

/** Go's eq and ne refuse to compare a string with a number (Helm: "incompatible types for comparison"). */
/**
 * @param {Value} a
 * @param {Value} b
 */
function comparable(a, b) {
  if (a !== null && a !== undefined && b !== null && b !== undefined && typeof a !== typeof b)
    throw new TemplateError(
      `incompatible types for comparison: ${JSON.stringify(a)} and ${JSON.stringify(b)}`,
    );
  if (isMap(a) || Array.isArray(a)) throw new TemplateError('eq and ne compare only basic values');
  return a ?? null;
}

/** @param {Value} v */
function empty(v) {
  return !truth(v);
}

/** Helm's and Sprig's functions, as far as the chart uses them. `self` is the renderer (for include). */
/** @type {Record<string, (self: Renderer, ...args: Value[]) => Value>} */
const FUNCTIONS = {
  include: (self, name, data) => self.include(name, data),
  toYaml: (_, v) => toYaml(v),
  nindent: (_, n, s) => `\n${indent(n, s)}`,
  indent: (_, n, s) => indent(n, s),
  quote: (_, ...vs) =>
    vs
      .filter((v) => v !== null && v !== undefined)
      .map((v) => goQuote(printValue(v, 'quote')))
      .join(' '),
  default: (_, fallback, v) => (empty(v) ? fallback : v),
  required: (_, message, v) => {
    if (v === null || v === undefined || v === '') throw new TemplateError(message);
    return v;
  },
  fail: (_, message) => {
    throw new TemplateError(message);
  },
  printf: (_, format, ...args) => printf(format, ...args),
  trunc: (_, n, s) => (n >= 0 ? String(s).slice(0, n) : String(s).slice(n)),
  trimSuffix: (_, suffix, s) => (String(s).endsWith(suffix) ? String(s).slice(0, -suffix.length) : String(s)),
  sha256sum: (_, s) =>
    createHash('sha256')
      .update(String(s ?? ''))
      .digest('hex'),
  dict: (_, ...pairs) => {
    if (pairs.length % 2) throw new TemplateError('dict needs key and value pairs');
    /** @type {ValueMap} */
    const out = {};
    for (let k = 0; k < pairs.length; k += 2) out[String(pairs[k])] = pairs[k + 1];
    return out;
  },
  eq: (_, a, ...bs) => {
    if (!bs.length) throw new TemplateError('eq needs two arguments');
    return bs.some((b) => comparable(a, b) === comparable(b, a));
  },
  ne: (_, a, b) => comparable(a, b) !== comparable(b, a),
  not: (_, v) => !truth(v),
  // Go's and/or: the first false (and) or true (or) argument, else the last one.
  and: (_, ...vs) => {
    const first = vs.findIndex((v) => !truth(v));
    return first < 0 ? vs[vs.length - 1] : vs[first];
  },
  or: (_, ...vs) => {
    const first = vs.findIndex((v) => truth(v));
    return first < 0 ? vs[vs.length - 1] : vs[first];
  },
};

/** The variables of a template's block (`$x := …`), each block's seen inside the blocks it holds. */
class Scope {
  /**
   * @param {Scope | null} parent
   * @param {ValueMap} [vars]
   */
  constructor(parent, vars = {}) {
    this.parent = parent;
    this.vars = new Map(Object.entries(vars));
  }
  /**
   * @param {string} name
   * @param {string} where
   * @returns {Value}
   */
  get(name, where) {
    if (this.vars.has(name)) return this.vars.get(name);
    if (this.parent) return this.parent.get(name, where);
    throw new TemplateError(`${where}: undefined variable ${name}`);
  }
  /**
   * @param {string} name
   * @param {Value} value
   * @param {string} where
   * @returns {void}
   */
  set(name, value, where) {
    if (this.vars.has(name)) this.vars.set(name, value);
    else if (this.parent) this.parent.set(name, value, where);
    else throw new TemplateError(`${where}: undefined variable ${name}`);
  }
}

class Renderer {
  /** @param {Defines} defines */
  constructor(defines) {
    this.defines = defines;
    this.depth = 0;
  }

  /**
   * @param {string} name
   * @param {Value} data
   * @returns {string}
   */
  include(name, data) {
    const define = this.defines.get(name);
    if (!define) throw new TemplateError(`include: no template named "${name}"`);
    if (++this.depth > 50) throw new TemplateError(`include "${name}": too deep`);
    try {
      return this.run(define.nodes, data, new Scope(null, { $: data }));
    } finally {
      this.depth--;
    }
  }

  /**
   * @param {TemplateNode[]} nodes
   * @param {Value} dot
   * @param {Scope} scope
   * @returns {string}
   */
  run(nodes, dot, scope) {
    let out = '';
    for (const node of nodes) out += this.node(node, dot, scope);
    return out;
  }

  /**
   * @param {TemplateNode} node
   * @param {Value} dot
   * @param {Scope} scope
   * @returns {string}
   */
  node(node, dot, scope) {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'action': {
        const value = this.pipeline(node.pipe, dot, scope, node.where);
        return node.pipe.decl.op ? '' : printValue(value, node.where);
      }
      case 'if': {
        const inner = new Scope(scope);
        return truth(this.pipeline(node.pipe, dot, inner, node.where))
          ? this.run(node.body, dot, inner)
          : this.run(node.elseBody, dot, inner);
      }
      case 'with': {
        const inner = new Scope(scope);
        const value = this.pipeline(node.pipe, dot, inner, node.where);
        return truth(value) ? this.run(node.body, value, inner) : this.run(node.elseBody, dot, inner);
      }
      case 'range': {
        const outer = new Scope(scope);
        const { vars } = node.pipe.decl;
        const value = this.pipeline({ ...node.pipe, decl: { vars: [], op: null } }, dot, outer, node.where);
        /** @type {Array<[string | number, Value]>} */
        let entries;
        if (value === null || value === undefined) entries = [];
        else if (Array.isArray(value)) entries = value.map((v, k) => [k, v]);
        else if (isMap(value))
          entries = Object.keys(value)
            .sort()
            .map((k) => [k, value[k]]);
        else throw new TemplateError(`${node.where}: range over ${typeof value}`);
        if (!entries.length) return this.run(node.elseBody, dot, outer);
        let out = '';
        for (const [k, v] of entries) {
          const inner = new Scope(outer);
          if (vars.length === 1) inner.vars.set(vars[0], v);
          if (vars.length === 2) inner.vars.set(vars[0], k).set(vars[1], v);
          out += this.run(node.body, v, inner);
        }
        return out;
      }
      default:
        throw new TemplateError(`unknown node ${/** @type {{ type: string }} */ (node).type}`);
    }
  }

  /**
   * @param {Pipeline} pipe
   * @param {Value} dot
   * @param {Scope} scope
   * @param {string} where
   * @returns {Value}
   */
  pipeline(pipe, dot, scope, where) {
    /** @type {Value} */
    let value;
    let piped = false;
    for (const command of pipe.commands) {
      value = this.command(command, dot, scope, where, piped ? [value] : []);
      piped = true;
    }
    const { vars, op } = pipe.decl;
    if (op === ':=') for (const name of vars) scope.vars.set(name, value);
    if (op === '=') for (const name of vars) scope.set(name, value, where);
    return value;
  }

  /**
   * @param {Operand[]} args
   * @param {Value} dot
   * @param {Scope} scope
   * @param {string} where
   * @param {Value[]} pipedIn
   * @returns {Value}
   */
  command(args, dot, scope, where, pipedIn) {
    const [head, ...rest] = args;
    if (head.t === 'word') {
      const fn = FUNCTIONS[head.v];
      if (!fn) throw new TemplateError(`${where}: function "${head.v}" is not supported by this renderer`);
      const values = rest.map((arg) => this.operand(arg, dot, scope, where)).concat(pipedIn);
      try {
        return fn(this, ...values);
      } catch (error) {
        if (error instanceof TemplateError && !error.message.startsWith(where) && head.v !== 'include')
          throw new TemplateError(`${where}: ${head.v}: ${error.message}`);
        throw error;
      }
    }
    if (rest.length || pipedIn.length)
      throw new TemplateError(`${where}: ${describe(head)} is not a function; it cannot take arguments`);
    return this.operand(head, dot, scope, where);
  }

  /**
   * @param {Operand} arg
   * @param {Value} dot
   * @param {Scope} scope
   * @param {string} where
   * @returns {Value}
   */
  operand(arg, dot, scope, where) {
    switch (arg.t) {
      case 'value':
        return arg.v;
      case 'field':
        return walk(dot, arg.path, where, '.');
      case 'var':
        return walk(scope.get(arg.name, where), arg.path, where, arg.name);
      case 'pipe':
        return this.pipeline({ ...arg.pipe, decl: { vars: [], op: null } }, dot, scope, where);
      case 'word':
        if (FUNCTIONS[arg.v]) return this.command([arg], dot, scope, where, []);
        throw new TemplateError(`${where}: function "${arg.v}" is not supported by this renderer`);
      default:
        throw new TemplateError(`${where}: unexpected ${/** @type {{ t: string }} */ (arg).t}`);
    }
  }
}

/** @param {Operand} tok */
function describe(tok) {
  if (tok.t === 'field') return `.${tok.path.join('.')}`;
  if (tok.t === 'var') return [tok.name, ...tok.path].join('.');
  return JSON.stringify(('v' in tok ? tok.v : undefined) ?? tok.t);
}

/** `.a.b.c`: a missing key is nil (Helm prints nothing); a field of nil is an error, as in Helm. */
/**
 * @param {Value} value
 * @param {string[]} path
 * @param {string} where
 * @param {string} start
 * @returns {Value}
 */
function walk(value, path, where, start) {
  let current = value;
  let walked = start;
  for (const key of path) {
    if (current === null || current === undefined)
      throw new TemplateError(`${where}: nil pointer evaluating ${walked}.${key}`);
    if (!isMap(current))
      throw new TemplateError(`${where}: can't evaluate field ${key} in ${walked} (not a map)`);
    current = Object.hasOwn(current, key) ? current[key] : undefined;
    walked = walked === '.' ? `.${key}` : `${walked}.${key}`;
  }
  return current;
}

// ---------------------------------------------------------------- the chart

/** Helm's coalescing: maps merge key by key, anything else replaces, null deletes. */
/**
 * @param {ValueMap} base
 * @param {ValueMap | null | undefined} override
 * @returns {ValueMap}
 */
export function mergeValues(base, override) {
  const out = { ...base };
  for (const [key, value] of Object.entries(override ?? {})) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = mergeValues(out[key], value);
    else out[key] = value;
  }
  return out;
}

/** @param {string} s */
const capitalise = (s) => s[0].toUpperCase() + s.slice(1);

/**
 * Renders the chart as `helm template <release> <chart> -n <namespace>` would: every template but the `_*` ones and
 * NOTES.txt, split into documents, parsed. Throws TemplateError on a template or values problem.
 */
/** @typedef {{ source: string, object: ValueMap, text: string }} RenderedObject */

/**
 * @param {string} chartDir
 * @param {{ values?: ValueMap, release?: string, namespace?: string }} [options]
 * @returns {{ objects: RenderedObject[], notes: string, values: ValueMap }}
 */
export function renderChart(chartDir, { values = {}, release = 'outpost', namespace = 'default' } = {}) {
  const chart = YAML.parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8'));
  const merged = mergeValues(
    YAML.parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'), { version: '1.1' }) ?? {},
    values,
  );
  const schemaFile = join(chartDir, 'values.schema.json');
  if (existsSync(schemaFile)) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
    if (!validate(merged))
      throw new TemplateError(
        `values don't meet the schema:\n${(validate.errors ?? []).map((e) => `- ${e.instancePath || '/'} ${e.message}`).join('\n')}`,
      );
  }
  const top = {
    Values: merged,
    Release: {
      Name: release,
      Namespace: namespace,
      Service: 'Helm',
      IsInstall: true,
      IsUpgrade: false,
      Revision: 1,
    },
    Chart: Object.fromEntries(Object.entries(chart).map(([k, v]) => [capitalise(k), v])),
  };
  const templatesDir = join(chartDir, 'templates');
  const files = readdirSync(templatesDir).sort();
  /** @type {Defines} */
  const defines = new Map();
  const parsed = files.map((file) => ({
    file,
    nodes: parseTemplate(readFileSync(join(templatesDir, file), 'utf8'), `templates/${file}`, defines),
  }));
  const renderer = new Renderer(defines);
  /** @type {RenderedObject[]} */
  const objects = [];
  let notes = '';
  for (const { file, nodes } of parsed) {
    if (file.startsWith('_')) continue;
    const text = renderer.run(nodes, top, new Scope(null, { $: top }));
    if (file === 'NOTES.txt') {
      notes = text;
      continue;
    }
    for (const doc of text.split(/^---[ \t]*$/m)) {
      if (!doc.trim()) continue;
      // YAML 1.1, as Helm and the Kubernetes API read it (an unquoted `off` is false there).
      const parsedDoc = YAML.parseDocument(doc, { uniqueKeys: true, version: '1.1' });
      if (parsedDoc.errors.length)
        throw new TemplateError(
          `templates/${file} renders invalid YAML: ${parsedDoc.errors[0].message}\n${doc}`,
        );
      const object = parsedDoc.toJS();
      if (object !== null)
        objects.push({ source: `templates/${file}`, object, text: doc.replace(/^\n+/, '') });
    }
  }
  return { objects, notes, values: merged };
}
