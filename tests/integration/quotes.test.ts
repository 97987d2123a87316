// Quotes against the sandbox: the form's rules first, then the service's own answers.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createQuotes } from '../../electron/services/orders/quotes.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { fieldOfServiceMessage } from '../../common/orders/validation.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { rejection as failure } from '../host-error.ts';
import { signedInClient } from '../signed-in.ts';

let sandbox: TestSandbox;
let client: ApiClient;
let modelId: string;

before(async () => {
  sandbox = await startTestSandbox();
  ({ client } = await signedInClient(sandbox, { sleep: async () => undefined }));
  const [project] = await sandbox.operator.listProjects();
  modelId = (await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'))).modelId;
});
after(() => sandbox.dispose());


test('a package quote lists methods with prices in cents and delivery windows, in euro by default', async () => {
  const quote = await createQuotes(() => client).get({ country: 'deu', package: { weight: 800, length: 20, width: 15, height: 10 } });
  assert.equal(quote.country, 'DE');
  assert.equal(quote.currency, 'EUR');
  assert.ok(quote.methods.length >= 3);
  for (const method of quote.methods) {
    assert.ok(Number.isInteger(method.price) && method.price > 0);
    assert.match(method.estimatedDeliveryTime ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  }
});

test('heavier and bigger parcels cost more; a models quote uses the service default weight', async () => {
  const quotes = createQuotes(() => client);
  const light = await quotes.get({ country: 'NL', package: { weight: 200, length: null, width: null, height: null } });
  const heavy = await quotes.get({ country: 'NL', package: { weight: 9_000, length: null, width: null, height: null } });
  assert.ok(heavy.methods[0].price > light.methods[0].price);
  const models = await quotes.get({ country: 'NL', models: [{ modelId, quantity: 2 }] });
  assert.ok(models.methods.length > 0);
});

test('the form rules stop a bad quote before it leaves, naming the field', async () => {
  const error = await failure(createQuotes(() => client).get({ country: 'NL', package: { weight: 5, length: 1, width: null, height: null } }));
  assert.equal(error.code, 'INCORRECT_PARAMETERS');
  assert.equal(error.details?.field, 'dimensions');
});

test("the service's own refusal comes back with its message, placed beside the right field", async () => {
  const error = await failure(createQuotes(() => client).get({ country: 'NL', models: [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity: 1 }] }));
  assert.equal(error.code, 'INCORRECT_PARAMETERS');
  assert.match(error.message, /does not exist/);
  assert.equal(fieldOfServiceMessage(error.message), 'models');
});
