// The "download sample" file of the Batch view: every column the importer understands, an
// order with two models (two rows, one reference), and each way of choosing shipping.

export const SAMPLE_FILE_NAME = 'printdesk-batch-sample.csv';

const HEADER = ['orderReference', 'firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'countryState', 'phoneNumber', 'email', 'modelName', 'modelId', 'quantity', 'shippingMethod', 'carrier', 'method'];

/** With the project's own model names when given, so the sample imports as it is. */
export function sampleCsv(modelNames: readonly string[] = []): string {
  const [a = 'bracket.stl', b = modelNames[0] ?? 'housing.3mf'] = modelNames;
  const rows = [
    ['SHOP-1001', 'Ada', 'Lovelace', 'Keizersgracht 123', '1015 CJ', 'Amsterdam', 'NL', '', '+31 20 123 4567', 'ada@example.com', a, '', '2', 'cheapest', '', ''],
    ['SHOP-1001', '', '', '', '', '', '', '', '', '', b, '', '1', '', '', ''],
    ['SHOP-1002', 'Grace', 'Hopper', '1 Main Street, Suite 2', '10001', 'New York', 'US', 'NY', '+1 212 555 0100', 'grace@example.com', a, '', '1', 'fastest', '', ''],
    ['', 'Alan', 'Turing', 'Unter den Linden 5', '10117', 'Berlin', 'DE', '', '', 'alan@example.com', b, '', '3', '', 'DHL', 'parcel'],
  ];
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${[HEADER, ...rows].map((cells) => cells.map(cell).join(',')).join('\r\n')}\r\n`;
}
