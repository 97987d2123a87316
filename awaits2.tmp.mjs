import ts from 'typescript';
import { writeFileSync } from 'node:fs';
const root = '/work/main';
const config = ts.getParsedCommandLineOfConfigFile(`${root}/tsconfig.host.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const byFile = new Map();
for (const d of ts.getPreEmitDiagnostics(program)) {
  if (!d.file || !/^(tests|bench)\//.test(d.file.fileName.replace(root + '/', ''))) continue;
  const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (!/Promise</.test(msg)) continue;
  const sf = d.file;
  const find = (node) => { let hit; const walk = (n) => { if (d.start >= n.getStart(sf) && d.start < n.getEnd()) { hit = n; ts.forEachChild(n, walk); } }; walk(node); return hit; };
  let node = find(sf);
  if (d.code === 2339 && ts.isPropertyAccessExpression(node.parent)) node = node.parent.expression;
  else { // the outermost expression starting here whose type is a Promise
    while (node.parent && node.parent.getStart(sf) === node.getStart(sf) && ts.isExpression(node.parent) && !ts.isAwaitExpression(node.parent)) node = node.parent;
    while (node && !(ts.isExpression(node) && checker.getTypeAtLocation(node).getSymbol()?.getName() === 'Promise')) node = node.getChildren(sf)[0];
  }
  if (!node) continue;
  const list = byFile.get(sf) ?? []; byFile.set(sf, list);
  if (list.some((n) => n === node)) continue;
  list.push(node);
}
for (const [sf, nodes] of byFile) {
  const ops = [];
  const asyncs = new Set();
  for (const node of nodes) {
    const p = node.parent;
    const wrap = !(ts.isVariableDeclaration(p) || ts.isExpressionStatement(p) || ts.isReturnStatement(p) || (ts.isCallExpression(p) && p.arguments.includes(node)));
    ops.push([node.getStart(sf), wrap ? '(await ' : 'await ']); if (wrap) ops.push([node.getEnd(), ')']);
    let fn = p; while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
    if (fn && !(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async)) asyncs.add(fn);
  }
  for (const fn of asyncs) { const mods = fn.modifiers?.filter((m) => m.kind === ts.SyntaxKind.ExportKeyword); ops.push([mods?.length ? mods[0].getEnd() + 1 : fn.getStart(sf), 'async ']); }
  ops.sort((a, b) => b[0] - a[0]);
  let text = sf.text; for (const [pos, t] of ops) text = text.slice(0, pos) + t + text.slice(pos);
  writeFileSync(sf.fileName, text); console.log(sf.fileName.replace(root + '/', ''), nodes.length, asyncs.size);
}
