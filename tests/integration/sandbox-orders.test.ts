// GetShippingMethods (spec 4.1, validation table in its documented order), CreateOrder (2.6,
// idempotent orderReference) and GetModelData against a running sandbox.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ModelRecord, OrderRecord } from '../../sandbox/server.ts';
import type { ShippingMethod } from '../../sandbox/shipping.ts';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
let sandbox: TestSandbox;
let url: string;
let token: string;
let otherToken: string;
let projectId: string;
let model: ModelRecord;
let foreignModel: ModelRecord;

before(async () => {
  sandbox = await startTestSandbox();
  url = sandbox.baseUrl;
  token = (await login(url, sandbox.demoAccount)).accessToken;
  otherToken = (await login(url, sandbox.noProjectAccount)).accessToken;
  projectId = (await sandbox.operator.listProjects())[0].projectId;
  const stl = path.join(sandbox.dataDir, 'cube.stl');
  fs.writeFileSync(stl, 'solid cube\nendsolid cube\n');
  model = await sandbox.operator.addModel(projectId, stl, { name: 'Cube' });
  const foreign = await sandbox.operator.createProject('Foreign');
  foreignModel = await sandbox.operator.addModel(foreign.projectId, stl);
});
after(() => sandbox.dispose());

const shipping = (json?: unknown, t = token) => call<{ methods: ShippingMethod[] }>(url, 'POST', '/Shipping/GetShippingMethods', { token: t, json });
const order = (json: unknown, t = token) => call<OrderRecord>(url, 'POST', '/Order/CreateOrder', { token: t, json });

async function expect400(response: Promise<{ status: number; body: { error?: { type: string; message: string } } }>, message: string | RegExp) {
  const { status, body } = await response;
  assert.equal(status, 400, JSON.stringify(body));
  assert.equal(body.error?.type, 'INCORRECT_PARAMETERS');
  if (typeof message === 'string') assert.equal(body.error?.message, message);
  else assert.match(body.error!.message, message);
}

describe('POST /Shipping/GetShippingMethods validation, in order', () => {
  it('walks the validation table', async () => {
    await expect400(shipping(), 'Request body is empty');
    await expect400(shipping({}), 'Country is not set');
    await expect400(shipping({ package: {} }), 'Country is not set');
    await expect400(shipping({ country: 'NL' }), 'Either models or package is required');
    await expect400(shipping({ country: 'NL', package: {} }), 'Package weight is required and must be greater than 0 grams');
    for (const weight of [0, -5, '500', null]) {
      await expect400(shipping({ country: 'NL', package: { weight } }), /Package weight is required/);
    }
    const dims = 'Package length, width and height are required when dimensions are supplied and must be greater than 0 centimeters';
    await expect400(shipping({ country: 'NL', package: { weight: 500, length: 10 } }), dims);
    await expect400(shipping({ country: 'NL', package: { weight: 500, length: 10, width: 10, height: 0 } }), dims);
    await expect400(shipping({ country: 'NL', package: { weight: 0, length: 10 } }), /weight/);
  });

  it('rejects both models and package, long and unknown countries', async () => {
    await expect400(shipping({ country: 'NL', package: { weight: 1 }, models: [{ modelId: model.modelId, quantity: 1 }] }), /not both/);
    await expect400(shipping({ country: 'NLDX', package: { weight: 1 } }), /at most 3/);
    await expect400(shipping({ country: 'XX', package: { weight: 1 } }), /not a known/);
    await expect400(shipping({ country: 42, package: { weight: 1 } }), /string/);
  });

  it('validates model entries', async () => {
    for (const models of [[], [{ modelId: 'x', quantity: 1 }], [{ modelId: model.modelId, quantity: 0 }], [{ modelId: model.modelId, quantity: 1.5 }], [{ modelId: model.modelId, quantity: -1 }], [{ modelId: model.modelId, quantity: '2' }], 'nope']) {
      await expect400(shipping({ country: 'NL', models }), /models|Models/);
    }
    await expect400(shipping({ country: 'NL', models: [{ modelId: crypto.randomUUID(), quantity: 1 }] }), /does not exist/);
    const foreign = await shipping({ country: 'NL', models: [{ modelId: foreignModel.modelId, quantity: 1 }] });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error?.type, 'NO_PERMISSION');
  });
});

describe('POST /Shipping/GetShippingMethods results', () => {
  it('returns normalized methods for a package with weight only', async () => {
    const response = await shipping({ country: 'nl', package: { weight: 500 } });
    assert.equal(response.status, 200);
    const { methods } = response.body.data!;
    assert.ok(methods.length >= 3);
    assert.ok(methods.some((m) => m.servicePoint) && methods.some((m) => !m.servicePoint));
    for (const m of methods) {
      assert.equal(typeof m.shippingMethodId, 'number');
      assert.ok(Number.isInteger(m.price) && m.price > 0);
      for (const t of [m.minDeliveryTime, m.maxDeliveryTime, m.estimatedDeliveryTime]) assert.match(t, ISO_SECONDS);
      assert.ok(m.minDeliveryTime <= m.estimatedDeliveryTime && m.estimatedDeliveryTime <= m.maxDeliveryTime);
      assert.ok(m.minDeliveryTime > new Date().toISOString().slice(0, 19));
    }
  });

  it('is deterministic, and prices grow with weight, volume and distance', async () => {
    const price = async (country: string, pkg: object) => {
      const methods = (await shipping({ country, package: pkg })).body.data!.methods;
      return methods.find((m) => m.shippingMethodId === 201)!.price;
    };
    assert.deepEqual((await shipping({ country: 'DE', package: { weight: 800 } })).body, (await shipping({ country: 'DEU', package: { weight: 800 } })).body);
    assert.ok((await price('NL', { weight: 5000 })) > (await price('NL', { weight: 500 })));
    assert.ok((await price('NL', { weight: 500, length: 60, width: 40, height: 40 })) > (await price('NL', { weight: 500 })));
    assert.ok((await price('DE', { weight: 500 })) > (await price('NL', { weight: 500 })));
    assert.ok((await price('US', { weight: 500 })) > (await price('CH', { weight: 500 })));
  });

  it('applies a default weight per model unit', async () => {
    const one = await shipping({ country: 'NL', models: [{ modelId: model.modelId, quantity: 1 }] });
    const many = await shipping({ country: 'NL', models: [{ modelId: model.modelId, quantity: 40 }] });
    assert.equal(one.status, 200);
    assert.ok(many.body.data!.methods[0].price > one.body.data!.methods[0].price);
  });

  it('answers an empty list where no carrier goes', async () => {
    assert.deepEqual((await shipping({ country: 'AQ', package: { weight: 100 } })).body, { success: true, data: { methods: [] } });
  });
});

describe('POST /Order/CreateOrder', () => {
  const valid = () => ({
    firstName: 'Zoë', lastName: 'Ōkubo-Łukasiewicz', streetAddress: 'Prinsengracht 263', postal: '1016 GV', city: 'Amsterdam',
    country: 'nl', countryState: '', phoneNumber: '+31 20 555 0101', email: 'zoe@example.com',
    models: [{ modelId: model.modelId, quantity: 2 }], shippingMethod: 201, projectId,
    orderReference: `ref-${crypto.randomUUID()}`, orderContent: { ConfigIds: ['cfg-1'], ExternalConfigIds: [], StockIds: [7] },
  });

  it('creates an order and returns its record', async () => {
    const body = valid();
    const response = await order(body);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const created = response.body.data!;
    assert.equal(created.status, 'received');
    assert.equal(created.orderReference, body.orderReference);
    assert.equal(created.country, 'NL');
    assert.equal(created.firstName, 'Zoë');
    assert.deepEqual(created.models, body.models);
    assert.ok(Number.isInteger(created.shippingPrice) && created.shippingPrice > 0);
    assert.match(created.createdAt, ISO_SECONDS);
    assert.deepEqual((await sandbox.operator.listOrders()).find((o) => o.orderId === created.orderId)?.orderReference, body.orderReference);
  });

  it('returns the first order for a repeated orderReference, also under concurrency', async () => {
    const body = valid();
    const responses = await Promise.all(Array.from({ length: 5 }, () => order(body)));
    assert.ok(responses.every((r) => r.status === 200));
    assert.equal(new Set(responses.map((r) => r.body.data!.orderId)).size, 1);
    assert.equal(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 4);
    assert.equal((await sandbox.operator.listOrders()).filter((o) => o.orderReference === body.orderReference).length, 1);
  });

  it('answers 422 for a used orderReference with a different request', async () => {
    const body = valid();
    assert.equal((await order(body)).status, 200);
    const changed = await order({ ...body, city: 'Utrecht' });
    assert.equal(changed.status, 422);
    assert.equal(changed.body.error?.type, 'INCORRECT_PARAMETERS');
  });

  it('answers 403 NO_PERMISSION for a project the user cannot access', async () => {
    const response = await order(valid(), otherToken);
    assert.equal(response.status, 403);
    assert.equal(response.body.error?.type, 'NO_PERMISSION');
  });

  it('validates every field', async () => {
    for (const field of ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'email', 'shippingMethod', 'orderReference', 'projectId']) {
      await expect400(order({ ...valid(), [field]: undefined }), `${field} is not set`);
    }
    await expect400(order({ ...valid(), country: undefined }), 'Country is not set');
    await expect400(order({ ...valid(), country: 'NLDX' }), /at most 3/);
    await expect400(order({ ...valid(), email: 'not-an-email' }), /e-mail/);
    await expect400(order({ ...valid(), projectId: 'nope' }), /GUID/);
    await expect400(order({ ...valid(), models: [{ modelId: model.modelId, quantity: 0 }] }), /quantity/);
    await expect400(order({ ...valid(), shippingMethod: 102, country: 'US' }), /not available/);
    await expect400(order({ ...valid(), shippingMethod: '201' }), /whole number/);
    await expect400(order({ ...valid(), firstName: 'A\u0007B' }), /control/);
    await expect400(order({ ...valid(), phoneNumber: 'call me' }), /phoneNumber/);
    await expect400(order({ ...valid(), orderContent: { ConfigIds: [{}] } }), /orderContent/);
    await expect400(order({ ...valid(), orderContent: { Other: [] } }), /orderContent/);
    const mine = await sandbox.operator.createProject('Mine', { assign: 'demo@printdesk.test' });
    const elsewhere = await sandbox.operator.addModel(mine.projectId, path.join(sandbox.dataDir, 'cube.stl'));
    await expect400(order({ ...valid(), models: [{ modelId: elsewhere.modelId, quantity: 1 }] }), /does not belong/);
    const foreign = await order({ ...valid(), models: [{ modelId: foreignModel.modelId, quantity: 1 }] });
    assert.equal(foreign.status, 403);
  });

  it('moves through states by operator command', async () => {
    const created = (await order(valid())).body.data!;
    assert.equal((await sandbox.operator.advanceOrder(created.orderId)).status, 'in_production');
    assert.equal((await sandbox.operator.advanceOrder(created.orderId)).status, 'shipped');
    await assert.rejects(sandbox.operator.advanceOrder(created.orderId, 'cancelled'), /cannot go from shipped/);
    assert.equal((await sandbox.operator.advanceOrder(created.orderId)).status, 'delivered');
  });
});

describe('GET /Model3D/GetModelData', () => {
  const get = (id: string, t = token) => call<ModelRecord>(url, 'GET', `/Model3D/GetModelData?modelId=${id}`, { token: t });

  it('returns the record, 404 for unknown, 403 for foreign, 400 for non-GUID', async () => {
    const found = await get(model.modelId);
    assert.equal(found.status, 200);
    assert.equal(found.body.data!.name, 'Cube');
    assert.equal(found.body.data!.format, 'stl');
    assert.match(found.body.data!.sha256, /^[0-9a-f]{64}$/);
    assert.equal((await get(crypto.randomUUID())).status, 404);
    assert.equal((await get(foreignModel.modelId)).status, 403);
    assert.equal((await get('123')).status, 400);
  });
});
