// A recipient's whole name, as platforms export it, split into the first and last name the service asks
// for. The split is shown on each row and can be corrected there: a name is not always two words.

/** Words that belong to the family name that follows them: "Ludwig van Beethoven", "Ana de la Cruz". */
const PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'di', 'da', 'das', 'dos', 'du', 'la', 'le', 'ten', 'ter', 'bin', 'ibn', 'al', 'el', 'st', 'st.', 'mac']);
/** Words after the family name that stay with it: "Martin Luther King Jr." */
const SUFFIXES = new Set(['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv', 'phd', 'md']);

export function splitName(full: string): { firstName: string; lastName: string } {
  const text = /\s\s|[\t\n\r]/.test(full) ? full.replace(/\s+/g, ' ').trim() : full.trim();
  // Most names are two words: said at once, without the word lists below (a file has thousands).
  const space = text.indexOf(' ');
  if (space !== -1 && !text.includes(',') && text.indexOf(' ', space + 1) === -1) return { firstName: text.slice(0, space), lastName: text.slice(space + 1) };
  // "Lovelace, Ada": the family name first, as some address books write it.
  const comma = /^([^,]+),\s*([^,]+)$/.exec(text);
  if (comma && !SUFFIXES.has(comma[2].toLowerCase())) return { firstName: comma[2].trim(), lastName: comma[1].trim() };
  const words = text.split(' ').filter(Boolean);
  if (words.length <= 1) return { firstName: words[0] ?? '', lastName: '' };
  let start = words.length - 1;
  while (start > 1 && SUFFIXES.has(words[start].toLowerCase().replace(/,$/, ''))) start--;
  while (start > 1 && PARTICLES.has(words[start - 1].toLowerCase())) start--;
  return { firstName: words.slice(0, start).join(' '), lastName: words.slice(start).join(' ') };
}
