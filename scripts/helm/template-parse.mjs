// @ts-check
// The Go text/template subset of scripts/render-helm.mjs: lexing and parsing (see that file's header).
export class TemplateError extends Error {}

/** @typedef {{ type: 'text', text: string } | { type: 'action', body: string, line: number }} LexItem */
/**
 * @typedef {{ t: 'value', v: unknown }
 *   | { t: 'var', name: string, path: string[] }
 *   | { t: 'field', path: string[] }
 *   | { t: 'word', v: string }
 *   | { t: ':=' | '=' | '|' | '(' | ')' | ',' }} Token
 */
/** @typedef {Token | { t: 'pipe', pipe: Commands }} Operand */
/** @typedef {{ commands: Operand[][] }} Commands */
/** @typedef {Commands & { decl: { vars: string[], op: string | null } }} Pipeline */
/** @typedef {{ type: 'if' | 'with' | 'range', pipe: Pipeline, body: TemplateNode[], elseBody: TemplateNode[], where: string }} Block */
/** @typedef {{ type: 'text', text: string } | { type: 'action', pipe: Pipeline, where: string } | Block} TemplateNode */
/** @typedef {Map<string, { nodes: TemplateNode[], file: string }>} Defines */

// ---------------------------------------------------------------- lexing and parsing

const UNSUPPORTED = new Set(['template', 'block', 'break', 'continue']);

/**
 * Splits a template into text and actions, applying `{{-` / `-}}` trimming and dropping comments.
 * @param {string} source
 * @param {string} file
 * @returns {LexItem[]}
 */
function lex(source, file) {
  /** @type {LexItem[]} */
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
    /** @type {string | null} */
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
/**
 * @param {string} body
 * @param {string} where
 * @returns {Token[]}
 */
function tokenize(body, where) {
  /** @type {Token[]} */
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
      tokens.push({ t: /** @type {':=' | '=' | '|' | '(' | ')' | ','} */ (m[0]) });
      i += m[0].length;
    } else throw new TemplateError(`${where}: cannot read "${rest.slice(0, 20)}"`);
  }
  return tokens;
}

/** pipeline := [decl] command ('|' command)*; command := operand+; operand := value | field | var | word | '(' pipeline ')' */
/**
 * @param {Token[]} tokens
 * @param {string} where
 * @param {boolean} allowDecl
 * @returns {Pipeline}
 */
function parsePipeline(tokens, where, allowDecl) {
  let pos = 0;
  /** @type {Pipeline['decl']} */
  const decl = { vars: [], op: null };
  const declMatch = () => {
    let j = 0;
    /** @type {string[]} */
    const vars = [];
    for (let tok = tokens[j]; tok?.t === 'var' && tok.path.length === 0; tok = tokens[j]) {
      vars.push(tok.name);
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
  /**
   * @param {boolean} stopAtParen
   * @returns {Commands}
   */
  const parse = (stopAtParen) => {
    /** @type {Operand[][]} */
    const commands = [];
    /** @type {Operand[]} */
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
/**
 * @param {string} source
 * @param {string} file
 * @param {Defines} defines
 * @returns {TemplateNode[]}
 */
export function parseTemplate(source, file, defines) {
  const items = lex(source, file);
  let i = 0;
  /**
   * @param {string[]} closers
   * @returns {{ nodes: TemplateNode[], closer?: undefined } | { nodes: TemplateNode[], closer: string, rest: string, where: string }}
   */
  const parseList = (closers) => {
    /** @type {TemplateNode[]} */
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
  /**
   * @param {Block['type']} kind
   * @param {string} rest
   * @param {string} where
   * @returns {Block}
   */
  const parseBlock = (kind, rest, where) => {
    const pipe = parsePipeline(tokenize(rest, where), where, kind === 'range');
    const body = parseList(['end', 'else']);
    /** @type {Block} */
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
