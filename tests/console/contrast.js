// contrast.js — run in the page by browser.py: WCAG 2 contrast ratios.
// contrast(el): every visible text of el's subtree whose colour against
// the background behind it is under 4.5:1 (3:1 for large text), as
// strings; focusRing(el): the ratio of el's focus outline against the
// background behind el (0 when it has none).
const parse = c => {
  const m = c.match(/[\d.]+/g);
  return m ? {r: +m[0], g: +m[1], b: +m[2], a: m[3] === undefined ? 1 : +m[3]} : {r: 0, g: 0, b: 0, a: 0};
};
const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a), a: 1});
const lum = ({r, g, b}) => {
  const f = v => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const ratio = (x, y) => {
  const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
  return (a + 0.05) / (b + 0.05);
};
// the colour behind el: its ancestors' backgrounds, laid over white
function behind(el) {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c.a > 0) layers.push(c);
    if (c.a === 1) break;
  }
  return layers.reverse().reduce((under, top) => over(top, under), {r: 255, g: 255, b: 255, a: 1});
}
const css = c => `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;

function contrast(root) {
  const low = [], seen = new Set();
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) {
    const el = n.parentElement;
    if (!n.textContent.trim() || seen.has(el) || el.getClientRects().length === 0) continue;
    seen.add(el);
    const s = getComputedStyle(el);
    if (s.visibility !== 'visible' || el.closest('button[disabled], option')) continue; // exempt: inactive
    const bg = behind(el), fg = over(parse(s.color), bg);
    const size = parseFloat(s.fontSize), large = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66);
    const r = ratio(fg, bg);
    if (r < (large ? 3 : 4.5))
      low.push(`"${n.textContent.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${el.className}): ` +
        `${css(fg)} on ${css(bg)} is ${r.toFixed(2)}:1`);
  }
  return low;
}

function focusRing(el) {
  const s = getComputedStyle(el);
  if (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) < 2) return 0;
  return ratio(over(parse(s.outlineColor), behind(el.parentElement)), behind(el.parentElement));
}
