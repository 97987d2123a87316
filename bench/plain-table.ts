// The baseline of the orders bench: the same rows as a plain HTML table, drawn whole (no virtualisation), with
// a search box and sortable columns done the plain way (sort or filter the array, draw the body again).
export const plainTableScript = `
  const COLUMNS = ['reference', 'recipient', 'country', 'models', 'method', 'price', 'status', 'placedAt', 'batch'];
  const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  let shown = [];
  let sortKey = null;
  let ascending = true;
  let query = '';
  function body(rows) {
    return rows.map((r) => '<tr>' + COLUMNS.map((c) => '<td>' + escape(r[c]) + '</td>').join('') + '</tr>').join('');
  }
  function draw() {
    const words = query.toLowerCase().split(/\\s+/).filter(Boolean);
    shown = window.rows.filter((r) => { const text = COLUMNS.map((c) => r[c]).join(' ').toLowerCase(); return words.every((w) => text.includes(w)); });
    if (sortKey) shown.sort((a, b) => (a[sortKey] < b[sortKey] ? -1 : a[sortKey] > b[sortKey] ? 1 : 0) * (ascending ? 1 : -1));
    document.querySelector('#body').innerHTML = body(shown);
  }
  window.showTable = () => {
    document.body.innerHTML = '<input id="search" type="search"><div id="scroller" style="height:640px;overflow:auto"><table style="border-collapse:collapse;width:100%"><thead><tr>' +
      COLUMNS.map((c, i) => '<th data-i="' + i + '">' + c + '</th>').join('') + '</tr></thead><tbody id="body"></tbody></table></div>';
    document.querySelector('#search').addEventListener('input', (e) => { query = e.target.value; draw(); });
    draw();
  };
  window.sortBy = (i) => {
    const key = COLUMNS[i % COLUMNS.length];
    ascending = key === sortKey ? !ascending : true;
    sortKey = key;
    draw();
  };
`;
