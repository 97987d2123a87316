// A recipient's whole name, as platforms export it, split into the first and last name the service asks
// for. The split is shown on each row and can be corrected there: a name is not always two words.

/** Words that belong to the family name that follows them: "Ludwig van Beethoven", "Ana de la Cruz". */
const PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'di', 'da', 'das', 'dos', 'du', 'la', 'le', 'ten', 'ter', 'bin', 'ibn', 'al', 'el', 'st', 'st.', 'mac']);
/** Words after the family name that stay with it: "Martin Luther King Jr." */
const SUFFIXES = new Set(['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv', 'phd', 'md']);

export function splitName(full: string): { firstName: string; lastName: string } {
  const text = full.replace(/\s+/g, ' ').trim();
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
