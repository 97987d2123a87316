// The fonts a model's page sets its facts in, found while the library is idle. A renderer looks a system
// font up (fontconfig, on Linux) the first time text is laid out in it: on the first model opened in a
// session, that lookup sat inside the page's layout when the facts came, a 93 ms task of which layout
// was 57 ms in a trace (17 ms with the fonts found ahead). The text here is laid out once, off screen, in
// each face the page uses, with the symbols its measures print, and removed: the renderer keeps the fonts.
let warmed = false;

const SAMPLE = [
  '<span>Aa 0123456789 — – × ² ³ µ … → ←</span>',
  '<b>Aa 0123456789 — ×</b>',
  '<span class="mono">0123456789abcdef-</span>',
  '<span style="font-variant-numeric: tabular-nums">0123456789</span>',
  '<h2>Aa</h2>',
].join('');

export function warmFonts(): void {
  if (warmed) return;
  warmed = true;
  const sample = document.createElement('div');
  sample.setAttribute('aria-hidden', 'true');
  sample.style.cssText = 'position: absolute; left: -10000px; top: 0; white-space: nowrap';
  sample.innerHTML = SAMPLE;
  document.body.append(sample);
  // Laid out now, in the idle time this is called in, rather than in the task that first shows a model's facts.
  void sample.offsetHeight;
  sample.remove();
}
