// The store's SQL is written once with SQLite's `?` placeholders (sql.ts); PostgreSQL numbers its own. A `?`
// inside a string, a quoted name, a comment or a dollar-quoted body is text, not a parameter, so it stays.

/** The end (exclusive) of the quoted or commented span opening at `start`, or null when none opens there. */
function skipQuoted(text: string, start: number): number | null {
  const char = text[start];
  if (char === "'" || char === '"') {
    // '' (or "") inside is the quote itself. An E'…' string also takes \' as one: its backslash skips a character.
    const escapes = char === "'" && /[eE]/.test(text[start - 1] ?? '') && !/[\w$]/.test(text[start - 2] ?? '');
    for (let at = start + 1; at < text.length; at++) {
      if (escapes && text[at] === '\\') at++;
      else if (text[at] === char) {
        if (text[at + 1] !== char) return at + 1;
        at++;
      }
    }
    return text.length;
  }
  if (char === '-' && text[start + 1] === '-') {
    const end = text.indexOf('\n', start);
    return end === -1 ? text.length : end + 1;
  }
  if (char === '/' && text[start + 1] === '*') {
    const end = text.indexOf('*/', start + 2);
    return end === -1 ? text.length : end + 2;
  }
  if (char === '$' && !/[\w$]/.test(text[start - 1] ?? '')) {
    // $$…$$ or $tag$…$tag$; a `$1` already numbered is not a quote.
    const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(text.slice(start))?.[0];
    if (!tag) return null;
    const end = text.indexOf(tag, start + tag.length);
    return end === -1 ? text.length : end + tag.length;
  }
  return null;
}

/** `?` placeholders numbered as PostgreSQL wants them: `a = ? AND b = ?` → `a = $1 AND b = $2`. */
export function numberPlaceholders(text: string): string {
  let out = '';
  let count = 0;
  let from = 0;
  for (let at = 0; at < text.length; ) {
    const end = skipQuoted(text, at);
    if (end !== null) {
      at = end;
      continue;
    }
    if (text[at] === '?') {
      out += `${text.slice(from, at)}$${++count}`;
      from = at + 1;
    }
    at++;
  }
  return count === 0 ? text : out + text.slice(from);
}
