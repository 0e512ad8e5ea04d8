#!/usr/bin/env node
// Renders deploy/helm/outpost without a helm binary (none can be installed on this project's machines), then
// checks every object against Kubernetes' schemas (kubernetes-models) and against what Outpost needs of them.
//
// The renderer is NOT Helm. It implements only the Go text/template subset the chart uses: text with `{{- -}}`
// trimming and comments; `if / else if / else`, `range` (lists, maps, `$k, $v :=`), `with`, `define`, `end`;
// variables (`$x := …`, `$x = …`, `$`); field chains on `.`, `$` and variables; parenthesised pipelines; and the
// functions in FUNCTIONS below, with Helm's meaning (`include`, `toYaml`, `nindent`, `quote`, `default`, …).
// Anything else (`template`, `block`, `tpl`, `lookup`, another function, a method call) stops it with an error
// naming the construct and the file, so a chart change that needs more fails here instead of rendering wrong.
// Values follow Helm: values.yaml deep-merged with overrides (null deletes a key), validated by values.schema.json,
// numbers printed as Go prints float64 (1000000 as 1e+06, like Helm).
//
//   node scripts/render-helm.mjs [chart dir] [-f values.yaml]... [--values-json '{"a":{"b":1}}'] [--check] [--json]
//     prints the manifests as YAML (or {objects, notes, problems} with --json); --check exits 1 on any problem.
//   node scripts/render-helm.mjs --check-manifests rendered.yaml [--external-secret name]
//     checks manifests rendered elsewhere (by a real `helm template`, where there is one) the same way.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import YAML from 'yaml';

export class TemplateError extends Error {}

// ---------------------------------------------------------------- lexing and parsing

const UNSUPPORTED = new Set(['template', 'block', 'break', 'continue']);

/** Splits a template into text and actions, applying `{{-` / `-}}` trimming and dropping comments. */
function lex(source, file) {
  const items = [];
  let pos = 0;
  let line = 1;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    if (open < 0) {
      items.push({ type: 'text', text: source.slice(pos) });
      break;
    }
    let text = source.slice(pos, open);
    let start = open + 2;
    if (/^-[ \t\r\n]/.test(source.slice(start, start + 2))) {
      text = text.replace(/[ \t\r\n]+$/, '');
      start += 2;
    }
    items.push({ type: 'text', text });
    line += (source.slice(pos, open).match(/\n/g) ?? []).length;
    // Find the closing delimiter outside string literals.
    let i = start;
    let quote = null;
    while (i < source.length) {
      const c = source[i];
      if (quote) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === '`') quote = c;
      else if (source.startsWith('}}', i)) break;
      i++;
    }
    if (i >= source.length) throw new TemplateError(`${file}:${line}: unclosed action`);
    let body = source.slice(start, i);
    let end = i + 2;
    if (/[ \t\r\n]-$/.test(body)) {
      body = body.slice(0, -2);
      const rest = source.slice(end);
      end += rest.length - rest.replace(/^[ \t\r\n]+/, '').length;
    }
    const trimmed = body.trim();
    if (trimmed.startsWith('/*')) {
      if (!trimmed.endsWith('*/')) throw new TemplateError(`${file}:${line}: unclosed comment`);
    } else items.push({ type: 'action', body: trimmed, line });
    line += (source.slice(open, end).match(/\n/g) ?? []).length;
    pos = end;
  }
  return items;
}

/** Tokens of one action: strings, numbers, fields, variables, words, parens, `|`, `:=`, `=`, `,`. */
function tokenize(body, where) {
  const tokens = [];
  let i = 0;
  while (i < body.length) {
    const rest = body.slice(i);
    let m;
    if ((m = /^\s+/.exec(rest))) i += m[0].length;
    else if ((m = /^"(?:[^"\\]|\\.)*"/.exec(rest))) {
      tokens.push({ t: 'value', v: JSON.parse(m[0]) });
      i += m[0].length;
    } else if ((m = /^`[^`]*`/.exec(rest))) {
      tokens.push({ t: 'value', v: m[0].slice(1, -1) });
      i += m[0].length;
    } else if ((m = /^-?\d+(\.\d+)?(?![\w.])/.exec(rest))) {
      tokens.push({ t: 'value', v: Number(m[0]) });
      i += m[0].length;
    } else if ((m = /^(\$[A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)/.exec(rest))) {
      tokens.push({ t: 'var', name: m[1], path: m[2] ? m[2].slice(1).split('.') : [] });
      i += m[0].length;
    } else if ((m = /^\.((?:[A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?/.exec(rest))) {
      if (tokens.at(-1)?.t === ')' && !/\s/.test(body[i - 1]))
        throw new TemplateError(
          `${where}: a field of a parenthesised pipeline is not supported by this renderer`,
        );
      tokens.push({ t: 'field', path: m[1] ? m[1].split('.') : [] });
      i += m[0].length;
    } else if ((m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest))) {
      const word = m[0];
      if (word === 'true' || word === 'false') tokens.push({ t: 'value', v: word === 'true' });
      else if (word === 'nil') tokens.push({ t: 'value', v: null });
      else tokens.push({ t: 'word', v: word });
      i += word.length;
    } else if ((m = /^(:=|=|\||\(|\)|,)/.exec(rest))) {
      tokens.push({ t: m[0] });
      i += m[0].length;
    } else throw new TemplateError(`${where}: cannot read "${rest.slice(0, 20)}"`);
  }
  return tokens;
}

/** pipeline := [decl] command ('|' command)*; command := operand+; operand := value | field | var | word | '(' pipeline ')' */
function parsePipeline(tokens, where, allowDecl) {
  let pos = 0;
  const decl = { vars: [], op: null };
  const declMatch = () => {
    let j = 0;
    const vars = [];
    while (tokens[j]?.t === 'var' && tokens[j].path.length === 0) {
      vars.push(tokens[j].name);
      j++;
      if (tokens[j]?.t === ',') j++;
      else break;
    }
    if (vars.length && (tokens[j]?.t === ':=' || tokens[j]?.t === '='))
      return { vars, op: tokens[j].t, next: j + 1 };
    return null;
  };
  const found = declMatch();
  if (found) {
    if (!allowDecl) throw new TemplateError(`${where}: a variable declaration is not allowed here`);
    decl.vars = found.vars;
    decl.op = found.op;
    pos = found.next;
  }
  const parse = (stopAtParen) => {
    const commands = [];
    let args = [];
    while (pos < tokens.length) {
      const tok = tokens[pos];
      if (tok.t === ')') {
        if (!stopAtParen) throw new TemplateError(`${where}: unexpected )`);
        break;
      }
      pos++;
      if (tok.t === '|') {
        if (!args.length) throw new TemplateError(`${where}: empty command before |`);
        commands.push(args);
        args = [];
      } else if (tok.t === '(') {
        const inner = parse(true);
        if (tokens[pos]?.t !== ')') throw new TemplateError(`${where}: missing )`);
        pos++;
        args.push({ t: 'pipe', pipe: inner });
      } else if (tok.t === 'word' && UNSUPPORTED.has(tok.v))
        throw new TemplateError(`${where}: "${tok.v}" is not supported by this renderer`);
      else if (tok.t === ',' || tok.t === ':=' || tok.t === '=')
        throw new TemplateError(`${where}: unexpected ${tok.t}`);
      else args.push(tok);
    }
    if (!args.length) throw new TemplateError(`${where}: empty pipeline`);
    commands.push(args);
    return { commands };
  };
  const pipe = parse(false);
  return { ...pipe, decl };
}

/** Builds the tree: a list of nodes, with `define`s collected into `defines`. */
function parseTemplate(source, file, defines) {
  const items = lex(source, file);
  let i = 0;
  const parseList = (closers) => {
    const nodes = [];
    while (i < items.length) {
      const item = items[i];
      if (item.type === 'text') {
        if (item.text) nodes.push({ type: 'text', text: item.text });
        i++;
        continue;
      }
      const where = `${file}:${item.line}`;
      const word = /^[A-Za-z]+/.exec(item.body)?.[0];
      const rest = word ? item.body.slice(word.length).trim() : item.body;
      if (word === 'end' || word === 'else') {
        if (!closers.length) throw new TemplateError(`${where}: unexpected {{ ${word} }}`);
        i++;
        return { nodes, closer: word, rest, where };
      }
      i++;
      if (word === 'if' || word === 'with' || word === 'range') {
        nodes.push(parseBlock(word, rest, where));
      } else if (word === 'define') {
        const name = /^"([^"]+)"$/.exec(rest)?.[1];
        if (!name) throw new TemplateError(`${where}: define needs one quoted name`);
        const body = parseList(['end']);
        if (body.closer !== 'end') throw new TemplateError(`${where}: define "${name}" has an else`);
        defines.set(name, { nodes: body.nodes, file });
      } else if (word && UNSUPPORTED.has(word)) {
        throw new TemplateError(`${where}: "${word}" is not supported by this renderer`);
      } else {
        nodes.push({ type: 'action', pipe: parsePipeline(tokenize(item.body, where), where, true), where });
      }
    }
    if (closers.length) throw new TemplateError(`${file}: missing {{ end }}`);
    return { nodes };
  };
  const parseBlock = (kind, rest, where) => {
    const pipe = parsePipeline(tokenize(rest, where), where, kind === 'range');
    const body = parseList(['end', 'else']);
    const node = { type: kind, pipe, body: body.nodes, elseBody: [], where };
    if (body.closer === 'else') {
      if (body.rest.startsWith('if ') && kind === 'if') {
        node.elseBody = [parseBlock('if', body.rest.slice(3).trim(), body.where)];
        return node;
      }
      if (body.rest) throw new TemplateError(`${body.where}: "else ${body.rest}" is not supported`);
      const elseBody = parseList(['end']);
      if (elseBody.closer !== 'end') throw new TemplateError(`${where}: two else branches`);
      node.elseBody = elseBody.nodes;
    }
    return node;
  };
  const top = parseList([]);
  return top.nodes;
}

// ---------------------------------------------------------------- evaluation

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Go's notion of truth in templates: nil, false, 0 and empty strings, lists and maps are false. */
function truth(v) {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string' || Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

/** How Go's fmt prints a float64 with %v (Helm's values are float64): exponent form from 1e+06 on. */
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
function printValue(v, where) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  throw new TemplateError(`${where}: printing a ${Array.isArray(v) ? 'list' : 'map'} (use toYaml)`);
}

function goQuote(s) {
  const quoted = JSON.stringify(s);
  if (/\\u00[0-1]/.test(quoted)) throw new TemplateError(`quote: control characters in ${quoted}`);
  return quoted;
}

const toYaml = (v) =>
  v === undefined
    ? 'null'
    : YAML.stringify(v, { sortMapEntries: true, lineWidth: 0, version: '1.1' }).replace(/\n$/, '');

const indent = (n, s) => {
  const pad = ' '.repeat(n);
  return pad + String(s).replaceAll('\n', `\n${pad}`);
};

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
function comparable(a, b) {
  if (a !== null && a !== undefined && b !== null && b !== undefined && typeof a !== typeof b)
    throw new TemplateError(
      `incompatible types for comparison: ${JSON.stringify(a)} and ${JSON.stringify(b)}`,
    );
  if (isMap(a) || Array.isArray(a)) throw new TemplateError('eq and ne compare only basic values');
  return a ?? null;
}

function empty(v) {
  return !truth(v);
}

/** Helm's and Sprig's functions, as far as the chart uses them. `self` is the renderer (for include). */
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

class Scope {
  constructor(parent, vars = {}) {
    this.parent = parent;
    this.vars = new Map(Object.entries(vars));
  }
  get(name, where) {
    if (this.vars.has(name)) return this.vars.get(name);
    if (this.parent) return this.parent.get(name, where);
    throw new TemplateError(`${where}: undefined variable ${name}`);
  }
  set(name, value, where) {
    if (this.vars.has(name)) this.vars.set(name, value);
    else if (this.parent) this.parent.set(name, value, where);
    else throw new TemplateError(`${where}: undefined variable ${name}`);
  }
}

class Renderer {
  constructor(defines) {
    this.defines = defines;
    this.depth = 0;
  }

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

  run(nodes, dot, scope) {
    let out = '';
    for (const node of nodes) out += this.node(node, dot, scope);
    return out;
  }

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
        throw new TemplateError(`unknown node ${node.type}`);
    }
  }

  pipeline(pipe, dot, scope, where) {
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
        throw new TemplateError(`${where}: unexpected ${arg.t}`);
    }
  }
}

function describe(tok) {
  if (tok.t === 'field') return `.${tok.path.join('.')}`;
  if (tok.t === 'var') return [tok.name, ...tok.path].join('.');
  return JSON.stringify(tok.v ?? tok.t);
}

/** `.a.b.c`: a missing key is nil (Helm prints nothing); a field of nil is an error, as in Helm. */
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
export function mergeValues(base, override) {
  const out = { ...base };
  for (const [key, value] of Object.entries(override ?? {})) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = mergeValues(out[key], value);
    else out[key] = value;
  }
  return out;
}

const capitalise = (s) => s[0].toUpperCase() + s.slice(1);

/**
 * Renders the chart as `helm template <release> <chart> -n <namespace>` would: every template but the `_*` ones and
 * NOTES.txt, split into documents, parsed. Throws TemplateError on a template or values problem.
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
        `values don't meet the schema:\n${validate.errors.map((e) => `- ${e.instancePath || '/'} ${e.message}`).join('\n')}`,
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
  const defines = new Map();
  const parsed = files.map((file) => ({
    file,
    nodes: parseTemplate(readFileSync(join(templatesDir, file), 'utf8'), `templates/${file}`, defines),
  }));
  const renderer = new Renderer(defines);
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

// ---------------------------------------------------------------- validation

/** The schema validator of each kind the chart may render, from kubernetes-models. */
async function modelFor(apiVersion, kind) {
  const models = {
    'v1/Secret': ['kubernetes-models/v1', 'Secret'],
    'v1/Service': ['kubernetes-models/v1', 'Service'],
    'v1/ConfigMap': ['kubernetes-models/v1', 'ConfigMap'],
    'apps/v1/Deployment': ['kubernetes-models/apps/v1', 'Deployment'],
    'apps/v1/StatefulSet': ['kubernetes-models/apps/v1', 'StatefulSet'],
    'autoscaling/v2/HorizontalPodAutoscaler': ['kubernetes-models/autoscaling/v2', 'HorizontalPodAutoscaler'],
    'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1', 'PodDisruptionBudget'],
    'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1', 'Ingress'],
  };
  const found = models[`${apiVersion}/${kind}`];
  if (!found) return null;
  const module = await import(found[0]);
  return module[found[1]];
}

const selects = (selector, labels) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value) &&
  Object.keys(selector ?? {}).length > 0;

/**
 * Problems of the rendered objects: Kubernetes' schema of each kind, then what Outpost needs (probes on its health
 * routes, Secret references that resolve (or name one of `external`, the Secrets made outside the chart), HPAs and PDBs that reach Deployments' pods, an Ingress that streams).
 */
export async function checkManifests(objects, { external = [] } = {}) {
  const problems = [];
  const byKind = (kind) => objects.map((o) => o.object).filter((o) => o.kind === kind);
  const names = new Set();
  for (const { source, object } of objects) {
    const id = `${object.kind}/${object.metadata?.name}`;
    if (names.has(id)) problems.push(`${id}: rendered twice`);
    names.add(id);
    const Model = await modelFor(object.apiVersion, object.kind);
    if (!Model) {
      problems.push(`${source}: ${object.apiVersion} ${object.kind} has no schema here`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${id} (${source}) against Kubernetes' schema: ${error.message}`);
    }
  }

  const secrets = new Map(byKind('Secret').map((s) => [s.metadata.name, s]));
  const workloads = [...byKind('Deployment'), ...byKind('StatefulSet')];
  for (const workload of workloads) {
    const id = `${workload.kind}/${workload.metadata.name}`;
    const pod = workload.spec?.template;
    if (!selects(workload.spec?.selector?.matchLabels, pod?.metadata?.labels))
      problems.push(`${id}: its selector does not select its own pods`);
    const containers = pod?.spec?.containers ?? [];
    for (const container of containers) {
      const port = (name) => container.ports?.find((p) => p.name === name);
      for (const [probe, path] of [
        ['livenessProbe', '/health/live'],
        ['readinessProbe', '/health/ready'],
      ]) {
        const get = container[probe]?.httpGet;
        if (get?.path !== path)
          problems.push(`${id}: ${probe} must GET ${path}, not ${get?.path ?? 'nothing'}`);
        else if (typeof get.port === 'string' && !port(get.port))
          problems.push(`${id}: ${probe} names port ${get.port}, which the container does not have`);
      }
      const env = new Map((container.env ?? []).map((e) => [e.name, e]));
      for (const variable of env.values()) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (!ref) continue;
        const secret = secrets.get(ref.name);
        if (!secret && !ref.optional && !external.includes(ref.name))
          problems.push(
            `${id}: ${variable.name} refers to Secret ${ref.name}, which is neither rendered nor existingSecret`,
          );
        if (
          secret &&
          !ref.optional &&
          !(ref.key in (secret.stringData ?? {}) || ref.key in (secret.data ?? {}))
        )
          problems.push(`${id}: ${variable.name} refers to key ${ref.key} that Secret ${ref.name} lacks`);
      }
      for (const mount of container.volumeMounts ?? [])
        if (
          !pod.spec.volumes?.some((v) => v.name === mount.name) &&
          !workload.spec.volumeClaimTemplates?.some((c) => c.metadata?.name === mount.name)
        )
          problems.push(`${id}: mounts volume ${mount.name}, which the pod does not have`);
      const surfaces = env.get('OUTPOST_SURFACES')?.value ?? '';
      const fleet = surfaces !== 'instance';
      if (fleet) {
        for (const required of ['OUTPOST_SECRET_KEY', 'DATABASE_URL'])
          if (!env.get(required)?.valueFrom?.secretKeyRef)
            problems.push(`${id}: ${required} must come from a Secret (secretKeyRef)`);
        const drain = Number(env.get('OUTPOST_DRAIN_DELAY_MS')?.value ?? 0);
        const grace = Number(env.get('OUTPOST_SHUTDOWN_GRACE_MS')?.value ?? 10_000);
        const period = pod.spec.terminationGracePeriodSeconds ?? 30;
        if (period * 1000 <= drain + grace)
          problems.push(
            `${id}: terminationGracePeriodSeconds ${period} s does not exceed the drain delay and shutdown grace (${drain + grace} ms)`,
          );
        // The endpoints drop a pod after failureThreshold failed probes; until then it must keep serving.
        const readiness = container.readinessProbe ?? {};
        const noticed = (readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000;
        if (drain < noticed)
          problems.push(
            `${id}: OUTPOST_DRAIN_DELAY_MS ${drain} is shorter than the ${noticed} ms the readiness probe takes to notice a drain`,
          );
      }
    }
  }

  const configMaps = new Set(byKind('ConfigMap').map((c) => c.metadata.name));
  for (const workload of workloads)
    for (const volume of workload.spec.template.spec.volumes ?? [])
      if (volume.configMap && !configMaps.has(volume.configMap.name))
        problems.push(
          `${workload.kind}/${workload.metadata.name}: volume ${volume.name} needs ConfigMap ${volume.configMap.name}, which is not rendered`,
        );

  const deployments = byKind('Deployment');
  for (const hpa of byKind('HorizontalPodAutoscaler')) {
    const ref = hpa.spec.scaleTargetRef;
    const target = deployments.find((d) => d.metadata.name === ref.name);
    if (ref.kind !== 'Deployment' || !target)
      problems.push(
        `HorizontalPodAutoscaler/${hpa.metadata.name}: targets ${ref.kind}/${ref.name}, not a rendered Deployment`,
      );
    const cpu = hpa.spec.metrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
    if (cpu?.resource?.target?.type !== 'Utilization')
      problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name}: no CPU utilisation target`);
    if (target && !target.spec.template.spec.containers.every((c) => c.resources?.requests?.cpu))
      problems.push(
        `HorizontalPodAutoscaler/${hpa.metadata.name}: its Deployment's containers request no CPU`,
      );
    if (target && target.spec.replicas !== undefined)
      problems.push(`Deployment/${target.metadata.name}: sets replicas while an HPA scales it`);
  }
  for (const pdb of byKind('PodDisruptionBudget')) {
    const selector = pdb.spec.selector?.matchLabels;
    if (!workloads.some((w) => selects(selector, w.spec.template.metadata.labels)))
      problems.push(`PodDisruptionBudget/${pdb.metadata.name}: selects no rendered pods`);
  }

  const services = byKind('Service');
  for (const service of services) {
    if (!workloads.some((w) => selects(service.spec.selector, w.spec.template.metadata.labels)))
      problems.push(`Service/${service.metadata.name}: selects no rendered pods`);
  }
  for (const ingress of byKind('Ingress')) {
    const id = `Ingress/${ingress.metadata.name}`;
    const annotations = ingress.metadata.annotations ?? {};
    const nginx = (key) => annotations[`nginx.ingress.kubernetes.io/${key}`];
    if (nginx('proxy-buffering') !== 'off') problems.push(`${id}: proxy-buffering must be "off" (SSE)`);
    if (nginx('proxy-request-buffering') !== 'off')
      problems.push(`${id}: proxy-request-buffering must be "off"`);
    for (const key of ['proxy-read-timeout', 'proxy-send-timeout'])
      if (!(Number(nginx(key)) >= 300)) problems.push(`${id}: ${key} must be at least 300 s for streams`);
    const paths = (ingress.spec.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
    for (const path of paths) {
      const backend = path.backend?.service;
      const service = services.find((s) => s.metadata.name === backend?.name);
      if (!service)
        problems.push(`${id}: ${path.path} goes to Service ${backend?.name}, which is not rendered`);
      else if (backend.port?.name && !service.spec.ports.some((p) => p.name === backend.port.name))
        problems.push(
          `${id}: ${path.path} names port ${backend.port.name} that Service ${service.metadata.name} lacks`,
        );
    }
    // Where ingress-nginx sends a request: the longest Prefix path that is a whole-segment prefix of it.
    const route = (url) =>
      paths
        .filter((p) => p.pathType === 'Prefix' || p.pathType === 'ImplementationSpecific')
        .filter((p) => p.path === '/' || url === p.path || url.startsWith(`${p.path.replace(/\/$/, '')}/`))
        .sort((a, b) => b.path.length - a.path.length)[0];
    const surfacesBehind = (serviceName) => {
      const service = services.find((s) => s.metadata.name === serviceName);
      const pods = workloads.filter(
        (w) => service && selects(service.spec.selector, w.spec.template.metadata.labels),
      );
      return pods.flatMap((w) =>
        w.spec.template.spec.containers.flatMap((c) =>
          (c.env?.find((e) => e.name === 'OUTPOST_SURFACES')?.value ?? '').split(','),
        ),
      );
    };
    for (const [url, surface] of [
      ['/console', 'console'],
      ['/console/api/orgs', 'console'],
      ['/web/console/main.js', 'console'],
      ['/favicon.ico', 'console'],
      ['/inference/v1/chat/completions', 'inference'],
    ]) {
      const path = route(url);
      if (!path) problems.push(`${id}: no route for ${url}`);
      else if (!surfacesBehind(path.backend?.service?.name).includes(surface))
        problems.push(
          `${id}: ${url} goes to Service ${path.backend?.service?.name}, whose pods do not serve ${surface}`,
        );
    }
  }
  return problems;
}

// ---------------------------------------------------------------- command line

async function main(argv) {
  const here = dirname(fileURLToPath(import.meta.url));
  let chartDir = resolve(here, '..', 'deploy', 'helm', 'outpost');
  let values = {};
  let check = false;
  let json = false;
  let release = 'outpost';
  let namespace = 'default';
  let manifests = null;
  const external = [];
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (arg === '-f' || arg === '--values')
      values = mergeValues(values, YAML.parse(readFileSync(argv[++k], 'utf8'), { version: '1.1' }));
    else if (arg === '--values-json') values = mergeValues(values, JSON.parse(argv[++k]));
    else if (arg === '--check') check = true;
    else if (arg === '--check-manifests') manifests = argv[++k];
    else if (arg === '--external-secret') external.push(argv[++k]);
    else if (arg === '--json') json = true;
    else if (arg === '--release') release = argv[++k];
    else if (arg === '--namespace' || arg === '-n') namespace = argv[++k];
    else if (!arg.startsWith('-')) chartDir = resolve(arg);
    else throw new Error(`unknown option ${arg}`);
  }
  if (manifests) {
    const objects = YAML.parseAllDocuments(readFileSync(manifests, 'utf8'), { version: '1.1' })
      .map((doc) => {
        if (doc.errors.length) throw new Error(`${manifests}: ${doc.errors[0].message}`);
        return doc.toJS();
      })
      .filter((object) => object !== null)
      .map((object) => ({ source: manifests, object }));
    const problems = await checkManifests(objects, { external });
    for (const problem of problems) process.stderr.write(`problem: ${problem}\n`);
    process.stderr.write(`${manifests}: ${objects.length} objects; ${problems.length} problems\n`);
    return problems.length ? 1 : 0;
  }
  let rendered;
  try {
    rendered = renderChart(chartDir, { values, release, namespace });
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    if (json) process.stdout.write(`${JSON.stringify({ error: error.message })}\n`);
    else process.stderr.write(`${basename(chartDir)}: ${error.message}\n`);
    return 2;
  }
  external.push(...[rendered.values.secret?.existingSecret].filter(Boolean));
  const problems = await checkManifests(rendered.objects, { external });
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ objects: rendered.objects.map((o) => o.object), notes: rendered.notes, problems })}\n`,
    );
  } else if (!check) {
    process.stdout.write(
      rendered.objects.map((o) => `---\n# Source: ${o.source}\n${o.text.replace(/\n*$/, '\n')}`).join(''),
    );
  }
  for (const problem of problems) process.stderr.write(`problem: ${problem}\n`);
  if (check && !json) {
    const kinds = rendered.objects.map((o) => `${o.object.kind}/${o.object.metadata.name}`);
    process.stderr.write(
      `${basename(chartDir)}: ${kinds.length} objects rendered (${kinds.join(', ')}); ${problems.length} problems\n`,
    );
  }
  return check && problems.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(2);
    },
  );
}
