import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectDelimiter, firstInvalidUtf8, parseCsv, type ParsedCsv } from '../../common/batch/parse-csv.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

function parsed(input: Uint8Array | string): ParsedCsv {
  const result = parseCsv(typeof input === 'string' ? bytes(input) : input);
  if (!result.ok) assert.fail(result.error.message);
  return result.value;
}

test('a UTF-8 BOM is dropped, so the first header is clean', () => {
  const csv = parsed(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('firstName,city\r\nAda,Zürich\r\n')]));
  assert.deepEqual(csv.header, ['firstName', 'city']);
  assert.deepEqual(csv.records, [{ row: 2, cells: ['Ada', 'Zürich'] }]);
});

test("Excel's semicolon-separated variant is recognised, with decimal commas left alone", () => {
  const csv = parsed('firstName;weight;city\nAda;1,5;Amsterdam\n');
  assert.equal(csv.delimiter, ';');
  assert.deepEqual(csv.records[0].cells, ['Ada', '1,5', 'Amsterdam']);
});

test('the "sep=" line Excel can write names the separator and is not a row', () => {
  const csv = parsed('sep=|\nfirstName|city\nAda|Delft\n');
  assert.equal(csv.delimiter, '|');
  assert.deepEqual(csv.header, ['firstName', 'city']);
});

test('TSV is read by its tabs', () => {
  const csv = parsed('firstName\tstreet\nAda\tKeizersgracht 1, Amsterdam\n');
  assert.equal(csv.delimiter, '\t');
  assert.deepEqual(csv.records[0].cells, ['Ada', 'Keizersgracht 1, Amsterdam']);
});

test('a quoted field may hold separators, quotes and line breaks; rows are counted as a spreadsheet shows them', () => {
  const csv = parsed('name,street,city\n"Lovelace, Ada","Keizersgracht 1\nApt ""B""",Amsterdam\n\nTuring,Unter den Linden,Berlin\n');
  assert.deepEqual(csv.records[0], { row: 2, cells: ['Lovelace, Ada', 'Keizersgracht 1\nApt "B"', 'Amsterdam'] });
  // The blank line is spreadsheet row 3; the next record is row 4 even though a cell spanned two lines.
  assert.equal(csv.records[1].row, 4);
});

test('Excel\'s "Unicode text" (UTF-16 LE with BOM) is decoded', () => {
  const text = 'firstName\tcity\r\nZoë\tGent\r\n';
  const utf16 = new Uint8Array(2 + text.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) utf16.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], 2 + i * 2);
  const csv = parsed(utf16);
  assert.equal(csv.encoding, 'utf-16le');
  assert.deepEqual(csv.records[0].cells, ['Zoë', 'Gent']);
});

test('a Latin-1 file is refused with the line of the first unreadable byte and what to do', () => {
  const latin1 = new Uint8Array([...bytes('firstName,city\nAda,Amsterdam\nRen'), 0xe9, ...bytes(',Paris\n')]);
  const result = parseCsv(latin1);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.equal(result.error.code, 'encoding');
  assert.equal(result.error.line, 3);
  assert.match(result.error.message, /not UTF-8.*0xE9.*line 3.*CSV UTF-8/s);
});

test('the UTF-8 checker finds truncated, overlong and surrogate sequences', () => {
  assert.equal(firstInvalidUtf8(bytes('plain ascii')), 11);
  assert.equal(firstInvalidUtf8(new Uint8Array([0x41, 0xc3])), 1);
  assert.equal(firstInvalidUtf8(new Uint8Array([0xc0, 0x80])), 0);
  assert.equal(firstInvalidUtf8(new Uint8Array([0x41, 0xed, 0xa0, 0x80])), 1);
  assert.equal(firstInvalidUtf8(bytes('€ ok')), 6);
});

test('a quote left open is named by its line, not silently swallowing the rest of the file', () => {
  const result = parseCsv(bytes('firstName,street\nAda,"Keizersgracht 1\nsecond line"\nAlan,"Unter den Linden\nGrace,Main St\n'));
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.equal(result.error.code, 'quotes');
  assert.equal(result.error.line, 4);
  assert.equal(result.error.row, 3);
  assert.match(result.error.message, /Line 4: a quoted field opened here is never closed/);
});

test('text after a closing quote is reported too', () => {
  const result = parseCsv(bytes('a,b\n1,"ab"c\n'));
  assert.equal(result.ok, false);
  if (!result.ok) assert.equal(result.error.code, 'quotes');
});

test('an empty file or one with only blank lines is refused', () => {
  for (const text of ['', '\n\n', '\uFEFF']) {
    const result = parseCsv(bytes(text));
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.error.code, 'empty');
  }
});

test('empty header cells get a name, and short rows are kept as they are', () => {
  const csv = parsed('firstName,,city\nAda\n');
  assert.deepEqual(csv.header, ['firstName', 'Column 2', 'city']);
  assert.deepEqual(csv.records[0].cells, ['Ada']);
});

test('the separator is taken from the header line only, outside quotes', () => {
  assert.equal(detectDelimiter('"a;b;c",d,e\n1;2;3;4;5'), ',');
  assert.equal(detectDelimiter('single column\nx'), ',');
});

// How fast is the batch bench's business (npm run bench -- batch); here only that volume parses whole.
test('100,000 rows parse, each numbered by its line in the file', () => {
  const row = 'Ada,Lovelace,"Keizersgracht 1, apt 2",1015 CJ,Amsterdam,NL,,+31 20 123 4567,ada@example.com,cube.stl,2\n';
  const text = `firstName,lastName,streetAddress,postal,city,country,countryState,phoneNumber,email,modelName,quantity\n${row.repeat(100_000)}`;
  const csv = parsed(text);
  assert.equal(csv.records.length, 100_000);
  assert.equal(csv.records[99_999].row, 100_001);
});

test('a workbook, a PDF or any binary file picked by mistake is named, not read as text', () => {
  const fail = (bytes: number[]) => {
    const result = parseCsv(new Uint8Array([...bytes, ...new Array(64).fill(0x41)]));
    assert.ok(!result.ok);
    return result.error;
  };
  assert.match(fail([0x50, 0x4b, 0x03, 0x04]).message, /Excel workbook \(\.xlsx\).*Save As/);
  assert.match(fail([0xd0, 0xcf, 0x11, 0xe0]).message, /old Excel workbook/);
  assert.match(fail([0x25, 0x50, 0x44, 0x46, 0x2d]).message, /PDF document/);
  assert.equal(fail([0x41, 0x00, 0x42]).code, 'not-text');
});
