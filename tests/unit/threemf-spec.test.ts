// Each rule of the 3MF specifications that the reader checks, broken by a package written for it: the
// violation names the rule and where it is, the model is still read as far as it can be, and a package
// that keeps every rule (all the features checked, used correctly) has none. The corpus's 3MF files, the
// 3MF Consortium's own samples, stay valid.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseModel, SPEC_RULES, type SpecRuleId, type SpecWhere } from '../../common/models/index.ts';
import { CORPUS } from '../corpus.ts';
import { contentTypes, CUBE_OBJECT, cubeMesh, DEFAULT_TYPES, modelXml, package3mf, PNG, relationships, START_PART, TEXTURE, THUMBNAIL, type PackageParts } from '../threemf-fixtures.ts';

const ROOT = '3D/3dmodel.model';
const startPart = { target: '/3D/3dmodel.model', type: START_PART };
const cube = (id: number, attributes = '', triangles = '', first = '') => `<object id="${id}" type="model"${attributes}>${cubeMesh(triangles, first)}</object>`;
const colours = (id: number, count = 3) => `<m:colorgroup id="${id}">${'<m:color color="#FF0000"/>'.repeat(count)}</m:colorgroup>`;
const bases = (id: number) => `<basematerials id="${id}"><base name="PLA red" displaycolor="#FF0000"/><base name="PLA blue" displaycolor="#0000FF"/></basematerials>`;
const texture = (id: number, extra = '') => `<m:texture2d id="${id}" path="/3D/Textures/wood.png" contenttype="image/png"${extra}/>`;
const textureRels = relationships({ target: '/3D/Textures/wood.png', type: TEXTURE });
const withTexture = { '3D/Textures/wood.png': PNG, '3D/_rels/3dmodel.model.rels': textureRels };

interface Case {
  name: string;
  files: PackageParts;
  /** Each violation expected, by rule, with what its where must hold. */
  broken: [SpecRuleId, Partial<SpecWhere>][];
}

const CASES: Case[] = [
  {
    name: 'more than one model part named as the root',
    files: { rels: relationships(startPart, { target: '/3D/other.model', type: START_PART }), parts: { '3D/other.model': modelXml(CUBE_OBJECT) } },
    broken: [['core.start-part', { part: '_rels/.rels', element: 'Relationship', line: 1 }]],
  },
  { name: 'no StartPart relationship', files: { rels: relationships() }, broken: [['core.start-part', { part: '_rels/.rels' }]] },
  { name: 'a part without a content type', files: { types: contentTypes({ rels: DEFAULT_TYPES.rels }) }, broken: [['core.content-type', { part: ROOT }]] },
  {
    name: 'a root model part of another content type',
    files: { types: contentTypes(DEFAULT_TYPES, { '/3D/3dmodel.model': 'text/xml' }) },
    broken: [['core.content-type', { part: '_rels/.rels', element: 'Relationship' }]],
  },
  {
    name: 'a relationship to a part that does not exist',
    files: { rels: relationships(startPart, { target: '/Metadata/thumbnail.png', type: THUMBNAIL }) },
    broken: [['core.relationship-target', { part: '_rels/.rels', element: 'Relationship' }]],
  },
  {
    name: 'a relationship to an external target',
    files: { rels: relationships(startPart, { target: 'https://example.com/cube.png', type: THUMBNAIL, extra: ' TargetMode="External"' }) },
    broken: [['core.external-target', { part: '_rels/.rels', element: 'Relationship' }]],
  },
  {
    name: 'the same relationship twice',
    files: { rels: relationships(startPart, { target: '/Metadata/t.png', type: THUMBNAIL }, { target: '/Metadata/t.png', type: THUMBNAIL }), parts: { 'Metadata/t.png': PNG } },
    broken: [['core.duplicate-relationship', { part: '_rels/.rels' }]],
  },
  {
    name: 'two relationships under one Id',
    files: { rels: relationships(startPart, { target: '/Metadata/t.png', type: THUMBNAIL, id: 'rel0' }), parts: { 'Metadata/t.png': PNG } },
    broken: [['opc.relationship-id', { part: '_rels/.rels', element: 'Relationship' }]],
  },
  {
    name: 'a thumbnail that is not an image',
    files: { rels: relationships(startPart, { target: '/Metadata/t.txt', type: THUMBNAIL }), parts: { 'Metadata/t.txt': 'a cube' }, types: contentTypes({ ...DEFAULT_TYPES, txt: 'text/plain' }) },
    broken: [['core.thumbnail', { part: '_rels/.rels' }]],
  },
  {
    name: 'an object thumbnail without its relationship',
    files: { model: modelXml(cube(1, ' thumbnail="/Thumbnails/cube.png"')), parts: { 'Thumbnails/cube.png': PNG } },
    broken: [['core.thumbnail', { part: ROOT, element: 'object' }]],
  },
  {
    name: 'a model outside the core namespace',
    files: { model: modelXml(CUBE_OBJECT).replace(`xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"`, 'xmlns="http://schemas.microsoft.com/3dmanufacturing/2013/01"') },
    broken: [['core.namespace', { part: ROOT, element: 'model', line: 2 }]],
  },
  { name: 'an unknown unit', files: { model: modelXml(CUBE_OBJECT).replace('unit="millimeter"', 'unit="furlong"') }, broken: [['core.unit', { part: ROOT, element: 'model' }]] },
  { name: 'a required extension not declared', files: { model: modelXml(CUBE_OBJECT, undefined, { attributes: ' requiredextensions="q"' }) }, broken: [['core.required-extension', { part: ROOT, element: 'model' }]] },
  { name: 'metadata without a name', files: { model: modelXml(CUBE_OBJECT, undefined, { head: '<metadata>anonymous</metadata>\n' }) }, broken: [['core.metadata-name', { part: ROOT, element: 'metadata', line: 3 }]] },
  { name: 'metadata with a name neither known nor prefixed', files: { model: modelXml(CUBE_OBJECT, undefined, { head: '<metadata name="Author">Ada</metadata>\n' }) }, broken: [['core.metadata-name', { part: ROOT, element: 'metadata' }]] },
  { name: 'metadata prefixed with an undeclared namespace', files: { model: modelXml(CUBE_OBJECT, undefined, { head: '<metadata name="shop:Order">42</metadata>\n' }) }, broken: [['core.metadata-name', { part: ROOT }]] },
  {
    name: 'a metadata name given twice',
    files: { model: modelXml(CUBE_OBJECT, undefined, { head: '<metadata name="Title">Cube</metadata>\n<metadata name="Title">Box</metadata>\n' }) },
    broken: [['core.metadata-duplicate', { part: ROOT, element: 'metadata', line: 4 }]],
  },
  { name: 'a resource without an id', files: { model: modelXml(`${CUBE_OBJECT}<m:colorgroup><m:color color="#FF0000"/></m:colorgroup>`) }, broken: [['core.resource-id', { part: ROOT, element: 'm:colorgroup' }]] },
  { name: 'a resource id of 0', files: { model: modelXml(`${CUBE_OBJECT}${bases(0)}`) }, broken: [['core.resource-id', { part: ROOT, element: 'basematerials' }]] },
  { name: 'two objects under one id', files: { model: modelXml(`${CUBE_OBJECT}${cube(1)}`) }, broken: [['core.resource-id-unique', { part: ROOT, element: 'object', id: 1 }]] },
  { name: 'one id for a colour group and an object', files: { model: modelXml(`${colours(1)}${CUBE_OBJECT}`) }, broken: [['core.resource-id-unique', { part: ROOT, element: 'object', id: 1 }]] },
  { name: 'a property group used before it is defined', files: { model: modelXml(`${cube(1, ' pid="5" pindex="0"')}${colours(5)}`) }, broken: [['core.defined-before-use', { part: ROOT, element: 'object', id: 5 }]] },
  { name: 'a build item without an objectid', files: { model: modelXml(CUBE_OBJECT, '<item objectid="1"/><item/>') }, broken: [['core.required-attribute', { part: ROOT, element: 'item' }]] },
  { name: 'a base material without a name', files: { model: modelXml(`<basematerials id="2"><base displaycolor="#FF0000"/></basematerials>${CUBE_OBJECT}`) }, broken: [['core.required-attribute', { part: ROOT, element: 'base' }]] },
  { name: 'a build item naming no object', files: { model: modelXml(CUBE_OBJECT, '<item objectid="1"/><item objectid="9"/>') }, broken: [['core.object-reference', { part: ROOT, element: 'item', id: 9 }]] },
  {
    name: 'a component naming a colour group',
    files: { model: modelXml(`${colours(2)}${cube(3)}<object id="1"><components><component objectid="3"/><component objectid="2"/></components></object>`) },
    broken: [['core.object-reference', { part: ROOT, element: 'component', id: 2 }]],
  },
  { name: 'an object of an unknown type', files: { model: modelXml(cube(1).replace('type="model"', 'type="part"')) }, broken: [['core.object-type', { part: ROOT, element: 'object', id: 1 }]] },
  { name: 'an object with neither a mesh nor components', files: { model: modelXml(`${CUBE_OBJECT}<object id="2" type="model"/>`) }, broken: [['core.object-content', { part: ROOT, element: 'object', id: 2 }]] },
  { name: 'an object of type "other" in the build', files: { model: modelXml(cube(1).replace('type="model"', 'type="other"')) }, broken: [['core.build-other', { part: ROOT, element: 'object', id: 1 }]] },
  {
    name: 'an object of type "other" in the build through components',
    files: { model: modelXml(`${cube(2).replace('type="model"', 'type="other"')}<object id="1"><components><component objectid="2"/></components></object>`) },
    broken: [['core.build-other', { part: ROOT, id: 2 }]],
  },
  { name: 'a triangle naming one vertex twice', files: { model: modelXml(`<object id="1" type="model">${cubeMesh().replace('<triangle v1="0" v2="2" v3="1"', '<triangle v1="0" v2="2" v3="0"')}</object>`) }, broken: [['core.triangle-vertices', { part: ROOT, element: 'triangle' }]] },
  { name: 'a pid pointing at nothing', files: { model: modelXml(cube(1, ' pid="7" pindex="0"')) }, broken: [['core.pid', { part: ROOT, element: 'object', id: 7 }]] },
  { name: 'a triangle pid pointing at an object', files: { model: modelXml(`${cube(2)}${cube(1, '', '', ' pid="2" p1="0"')}`) }, broken: [['core.pid', { part: ROOT, element: 'triangle', id: 2 }]] },
  { name: 'an object pindex beyond its group', files: { model: modelXml(`${bases(2)}${cube(1, ' pid="2" pindex="5"')}`) }, broken: [['core.pindex', { part: ROOT, element: 'object', id: 1 }]] },
  { name: 'a triangle p1 beyond its group', files: { model: modelXml(`${colours(2)}${cube(1, ' pid="2" pindex="0"', '', ' p1="7"')}`) }, broken: [['core.pindex', { part: ROOT, element: 'triangle', id: 2 }]] },
  { name: 'a pindex without a pid', files: { model: modelXml(cube(1, ' pindex="0"')) }, broken: [['core.pindex-without-pid', { part: ROOT, element: 'object', id: 1 }]] },
  {
    name: 'a pid on an object of components',
    files: { model: modelXml(`${bases(2)}${cube(3)}<object id="1" pid="2" pindex="0"><components><component objectid="3"/></components></object>`) },
    broken: [['core.components-property', { part: ROOT, element: 'object', id: 1 }]],
  },
  { name: 'a gradient of base materials', files: { model: modelXml(`${bases(2)}${cube(1, ' pid="2" pindex="0"', '', ' p1="0" p2="1"')}`) }, broken: [['core.base-gradient', { part: ROOT, element: 'triangle', id: 2 }]] },
  { name: 'a display colour that is not a colour', files: { model: modelXml(`<basematerials id="2"><base name="red" displaycolor="red"/></basematerials>${CUBE_OBJECT}`) }, broken: [['core.color', { part: ROOT, element: 'base' }]] },
  { name: 'a colour of five digits', files: { model: modelXml(`<m:colorgroup id="2"><m:color color="#12345"/></m:colorgroup>${CUBE_OBJECT}`) }, broken: [['core.color', { part: ROOT, element: 'm:color' }]] },
  { name: 'an empty colour group', files: { model: modelXml(`<m:colorgroup id="2"></m:colorgroup>${CUBE_OBJECT}`) }, broken: [['core.empty-group', { part: ROOT, element: 'm:colorgroup' }]] },
  { name: 'a colour without its value', files: { model: modelXml(`<m:colorgroup id="2"><m:color/></m:colorgroup>${CUBE_OBJECT}`) }, broken: [['materials.required-attribute', { part: ROOT, element: 'm:color' }]] },
  { name: 'a texture without a path', files: { model: modelXml(`<m:texture2d id="2" contenttype="image/png"/>${CUBE_OBJECT}`) }, broken: [['materials.required-attribute', { part: ROOT, element: 'm:texture2d' }]] },
  { name: 'texture coordinates without a texid', files: { model: modelXml(`<m:texture2dgroup id="3"><m:tex2coord u="0" v="0"/></m:texture2dgroup>${CUBE_OBJECT}`) }, broken: [['materials.required-attribute', { part: ROOT, element: 'm:texture2dgroup' }]] },
  {
    name: 'a texture of the wrong content type',
    files: { model: modelXml(`${texture(2).replace('image/png', 'image/gif')}${CUBE_OBJECT}`), parts: withTexture },
    broken: [['materials.texture-content-type', { part: ROOT, element: 'm:texture2d' }]],
  },
  {
    name: 'a texture whose part is of another content type than it says',
    files: { model: modelXml(`${texture(2)}${CUBE_OBJECT}`), parts: withTexture, types: contentTypes(DEFAULT_TYPES, { '/3D/Textures/wood.png': 'image/jpeg' }) },
    broken: [['materials.texture-content-type', { part: ROOT, element: 'm:texture2d', id: 2 }]],
  },
  { name: 'a texture whose part is missing', files: { model: modelXml(`${texture(2)}${CUBE_OBJECT}`) }, broken: [['materials.texture-part', { part: ROOT, element: 'm:texture2d', id: 2 }]] },
  { name: 'a texture without its relationship', files: { model: modelXml(`${texture(2)}${CUBE_OBJECT}`), parts: { '3D/Textures/wood.png': PNG } }, broken: [['materials.texture-part', { part: ROOT, id: 2 }]] },
  { name: 'a texture tiled in an unknown way', files: { model: modelXml(`${texture(2, ' tilestyleu="repeat"')}${CUBE_OBJECT}`), parts: withTexture }, broken: [['materials.texture-style', { part: ROOT, element: 'm:texture2d' }]] },
  {
    name: 'texture coordinates whose texid is a colour group',
    files: { model: modelXml(`${colours(2)}<m:texture2dgroup id="3" texid="2"><m:tex2coord u="0" v="0"/></m:texture2dgroup>${CUBE_OBJECT}`) },
    broken: [['materials.texid', { part: ROOT, element: 'm:texture2dgroup', id: 2 }]],
  },
  {
    name: 'a composite of a colour group',
    files: { model: modelXml(`${colours(2)}<m:compositematerials id="3" matid="2" matindices="0 1"><m:composite values="0.5 0.5"/></m:compositematerials>${CUBE_OBJECT}`) },
    broken: [['materials.composite', { part: ROOT, element: 'm:compositematerials', id: 2 }]],
  },
  {
    name: 'a composite of materials beyond its group',
    files: { model: modelXml(`${bases(2)}<m:compositematerials id="3" matid="2" matindices="0 4"><m:composite values="0.5 0.5"/></m:compositematerials>${CUBE_OBJECT}`) },
    broken: [['materials.composite', { part: ROOT, element: 'm:compositematerials' }]],
  },
  {
    name: 'multiproperties with a material after the first layer',
    files: { model: modelXml(`${colours(2)}${bases(3)}<m:multiproperties id="4" pids="2 3"><m:multi pindices="0 0"/></m:multiproperties>${CUBE_OBJECT}`) },
    broken: [['materials.multiproperties', { part: ROOT, element: 'm:multiproperties' }]],
  },
  {
    name: 'multiproperties of two colour groups and too many blend methods',
    files: { model: modelXml(`${colours(2)}${colours(3)}<m:multiproperties id="4" pids="2 3" blendmethods="mix multiply"><m:multi pindices="0 0"/></m:multiproperties>${CUBE_OBJECT}`) },
    broken: [['materials.multiproperties', { part: ROOT }], ['materials.multiproperties', { part: ROOT }]],
  },
  {
    name: 'a component with a path in a model part that is not the root',
    files: {
      model: modelXml('<object id="1"><components><component objectid="5" p:path="/3D/parts.model"/></components></object>'),
      parts: { '3D/parts.model': modelXml(`${cube(6)}<object id="5"><components><component objectid="6" p:path="/3D/parts.model"/></components></object>`, ''), '3D/_rels/3dmodel.model.rels': relationships({ target: '/3D/parts.model', type: START_PART }) },
    },
    broken: [['production.path', { part: '3D/parts.model', element: 'component' }]],
  },
  {
    name: 'a model part used by path without its relationship',
    files: { model: modelXml('<object id="1"><components><component objectid="5" p:path="/3D/parts.model"/></components></object>'), parts: { '3D/parts.model': modelXml(cube(5), '') } },
    broken: [['production.model-relationship', { part: '3D/parts.model' }]],
  },
];

for (const { name, files, broken } of CASES) {
  test(`3MF that breaks the specification: ${name}`, () => {
    const model = parseModel(package3mf(files), 'broken.3mf');
    const { conformance } = model.facts;
    assert.deepEqual(conformance.violations.map((v) => v.rule).sort(), broken.map(([rule]) => rule).sort(), JSON.stringify(conformance.violations, null, 1));
    for (const [rule, where] of broken) {
      const found = conformance.violations.find((v) => v.rule === rule)!;
      assert.deepEqual({ ...found.where, ...where }, found.where, `${rule} is said where it is: ${JSON.stringify(found.where)}`);
      assert.equal(found.section, SPEC_RULES[rule].section);
      assert.ok(found.message.length > 10);
      assert.equal(found.severity, SPEC_RULES[rule].severity);
    }
    const errors = broken.filter(([rule]) => SPEC_RULES[rule].severity === 'error').length;
    assert.equal(conformance.valid, errors === 0);
    assert.equal(conformance.errors + conformance.warnings, broken.length);
    // Still drawn as far as it can be: the cube is there.
    assert.ok(model.facts.triangles >= 12);
  });
}

test('every rule the reader checks has a package above that breaks it', () => {
  const covered = new Set(CASES.flatMap(({ broken }) => broken.map(([rule]) => rule)));
  assert.deepEqual(Object.keys(SPEC_RULES).filter((rule) => !covered.has(rule as SpecRuleId)), []);
});

test('a 3MF using every feature checked, correctly, keeps every rule', () => {
  const model = modelXml(
    [
      bases(2),
      colours(3),
      texture(4, ' tilestyleu="mirror" tilestylev="clamp" filter="nearest"'),
      '<m:texture2dgroup id="5" texid="4"><m:tex2coord u="0" v="0"/><m:tex2coord u="1" v="1"/></m:texture2dgroup>',
      '<m:compositematerials id="6" matid="2" matindices="0 1"><m:composite values="0.3 0.7"/></m:compositematerials>',
      '<m:multiproperties id="7" pids="2 3 5" blendmethods="multiply mix"><m:multi pindices="0 1 1"/></m:multiproperties>',
      cube(8, ' pid="3" pindex="0" thumbnail="/Thumbnails/cube.png"', ' pid="3" p1="0" p2="1" p3="2"'),
      cube(9, ' pid="7" pindex="0"', '', ' pid="5" p1="0" p2="1" p3="1"'),
      '<object id="1" type="model"><components><component objectid="8"/><component objectid="9" transform="1 0 0 0 1 0 0 0 1 20 0 0"/><component objectid="5" p:path="/3D/parts.model"/></components></object>',
    ].join('\n'),
    '<item objectid="1"/><item objectid="5" p:path="/3D/parts.model" transform="1 0 0 0 1 0 0 0 1 0 20 0"/>',
    { head: '<metadata name="Title">Every feature</metadata>\n<metadata name="p:Batch">7</metadata>\n', attributes: ' requiredextensions="p"' },
  );
  const bytes = package3mf({
    model,
    parts: {
      '3D/parts.model': modelXml(cube(5), ''),
      '3D/Textures/wood.png': PNG,
      'Thumbnails/cube.png': PNG,
      'Metadata/thumbnail.png': PNG,
      '3D/_rels/3dmodel.model.rels': relationships({ target: '/3D/Textures/wood.png', type: TEXTURE }, { target: '/Thumbnails/cube.png', type: THUMBNAIL }, { target: '/3D/parts.model', type: START_PART }),
    },
    rels: relationships(startPart, { target: '/Metadata/thumbnail.png', type: THUMBNAIL }),
  });
  const parsed = parseModel(bytes, 'every.3mf');
  assert.deepEqual(parsed.facts.conformance, { valid: true, errors: 0, warnings: 0, violations: [] });
  assert.equal(parsed.facts.triangles, 12 * 4, 'three components and a second item');
});

test('the corpus\'s 3MF files, the 3MF Consortium\'s samples, are valid', () => {
  for (const file of readdirSync(join(CORPUS, '3mf')).filter((name) => name.endsWith('.3mf'))) {
    const { conformance } = parseModel(readFileSync(join(CORPUS, '3mf', file)), file).facts;
    assert.equal(conformance.valid, true, `${file}: ${JSON.stringify(conformance.violations)}`);
    // One sample gives a metadata name twice: the consortium's library reads it with a warning, as here.
    const warnings = conformance.violations.map((v) => `${v.rule}: ${v.message}`);
    assert.deepEqual(warnings, file === 'dodeca_chain_loop_color.3mf' ? ['core.metadata-duplicate: Metadata "Description" is given twice.'] : [], file);
  }
});

test('a rule broken a million times is counted, and said a few times', () => {
  const triangles = Array.from({ length: 2000 }, () => '<triangle v1="0" v2="0" v3="1"/>').join('');
  const model = modelXml(`<object id="1" type="model"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="1" y="0" z="0"/><vertex x="0" y="1" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/>${triangles}</triangles></mesh></object>`);
  const { conformance } = parseModel(package3mf({ model }), 'many.3mf').facts;
  assert.equal(conformance.errors, 2000);
  assert.equal(conformance.violations.length, 5);
});
