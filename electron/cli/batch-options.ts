// What `printdesk batch` takes on its command line, checked before anything else runs.
import { parseArgs } from 'node:util';
import { CONSTANT_FIELDS, type ConstantField, type FieldConstants } from '../../common/batch/mapping.ts';
import { LAYOUT_NAMES, NOT_OPEN, type LayoutName, type NotOpen } from '../../common/batch/platforms/types.ts';
import { parseShippingChoice, type ShippingChoice } from '../../common/batch/shipping-rule.ts';
import { EXIT, Exit } from './exit.ts';

export const USAGE = `Usage: printdesk batch <file.csv> --project <id or name> [options]

Places one order per orderReference in the file (rows without one are one order each),
through the same validation and outbox as the app. Re-running the same file never places an
order twice; after an interruption it resumes where it stopped. A shop's own export is read as
downloaded: Shopify (Orders › Export), Etsy (Download Data: Orders or Order Items), Amazon (the
Unshipped Orders report) and eBay (Seller Hub's Orders report) are recognised by their header.
The file is read and checked before signing in: a broken file stops with exit 2 at once.

Options:
  --project <id|name>    the project the models and orders belong to (required)
  --layout <name>        read the file as ${LAYOUT_NAMES.join(', ')}
                         (default: recognised by its header; csv = matched by column names)
  --sku-map <skus.csv>   add to the project's SKU table first: columns SKU and Model name (or
                         Model id), or "yes" under Not a print (as the app's SKU export writes it)
  --set <field=value>    one value for every row that has none: ${CONSTANT_FIELDS.map((f) => (f === 'phoneNumber' ? 'phone' : f)).join(', ')}
                         (e.g. --set email=orders@shop.example); kept for files of this layout
  --include <reasons>    also take orders that are not open: ${NOT_OPEN.join(', ')} or all
  --dry-run              validate (with live quotes) and report, send nothing; exit 0 only when
                         every row would be sent (or was placed before, or is marked not a print)
  --report <out.csv>     write every row with its outcome (placed + order id, rejected + why, …)
  --shipping <choice>    for rows without one: cheapest (default), fastest, a method id, or "CARRIER method"
  --skip-invalid         send the valid orders even if some rows have problems
  --service <baseUrl>    the service (…/v2); default: the app's embedded sandbox

Credentials: PRINTDESK_EMAIL and PRINTDESK_PASSWORD (or PRINTDESK_PASSWORD_FILE, a file whose first
line is the password). Without them the embedded sandbox's demo account is used, and for another
service a terminal asks for them. (The app's saved session is
encrypted with the OS keychain through Electron and cannot be read from here yet.)
Data: the app's own database under PRINTDESK_USER_DATA or the OS default, so the app shows the batch,
and uses the project's SKU table and the column matching saved there.

Exit codes: 0 all placed (orders not open or not prints are listed, with the flags that would send
them), 1 some not placed, 2 invalid input, 3 service unreachable or sign-in failed,
130 interrupted (Ctrl+C): what was not yet sent stays queued for the next run.`;

export interface BatchOptions {
  file: string;
  project: string;
  dryRun: boolean;
  report?: string;
  shipping?: ShippingChoice;
  skipInvalid: boolean;
  service?: string;
  layout?: LayoutName;
  skuMap?: string;
  constants?: FieldConstants;
  include?: NotOpen[];
}

export function batchOptions(argv: string[]): BatchOptions {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        report: { type: 'string' },
        shipping: { type: 'string' },
        'skip-invalid': { type: 'boolean', default: false },
        service: { type: 'string' },
        layout: { type: 'string' },
        'sku-map': { type: 'string' },
        set: { type: 'string', multiple: true },
        include: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) throw new Exit(EXIT.ok, USAGE);
    const [file, ...extra] = positionals[0] === 'batch' ? positionals.slice(1) : positionals;
    if (!file || extra.length) throw new Exit(EXIT.invalid, `${file ? `Unexpected argument: ${extra[0]}` : 'Which file? Give the CSV file to import.'}\n\n${USAGE}`);
    if (!values.project) throw new Exit(EXIT.invalid, `--project is required.\n\n${USAGE}`);
    const shipping = values.shipping === undefined ? undefined : parseShippingChoice(values.shipping);
    if (shipping === null) throw new Exit(EXIT.invalid, `--shipping ${values.shipping}: use cheapest, fastest, a method id, or "CARRIER method"`);
    return {
      file,
      project: values.project,
      dryRun: values['dry-run'],
      report: values.report,
      shipping,
      skipInvalid: values['skip-invalid'],
      service: values.service,
      layout: layoutOf(values.layout),
      skuMap: values['sku-map'],
      constants: values.set && constantsOf(values.set),
      include: values.include && includeOf(values.include),
    };
  } catch (error) {
    if (error instanceof Exit) throw error;
    throw new Exit(EXIT.invalid, `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
}

function layoutOf(value: string | undefined): LayoutName | undefined {
  if (value === undefined) return undefined;
  const name = value.trim().toLowerCase();
  if ((LAYOUT_NAMES as readonly string[]).includes(name)) return name as LayoutName;
  throw new Exit(EXIT.invalid, `--layout ${value}: use one of ${LAYOUT_NAMES.join(', ')}`);
}

const FIELD_NAMES: Record<string, ConstantField> = { email: 'email', phone: 'phoneNumber', phonenumber: 'phoneNumber', country: 'country' };

function constantsOf(pairs: readonly string[]): FieldConstants {
  const constants: FieldConstants = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const field = FIELD_NAMES[(at === -1 ? pair : pair.slice(0, at)).trim().toLowerCase()];
    const value = at === -1 ? '' : pair.slice(at + 1).trim();
    if (!field || !value) throw new Exit(EXIT.invalid, `--set ${pair}: give field=value, the field one of email, phone, country`);
    constants[field] = value;
  }
  return constants;
}

function includeOf(values: readonly string[]): NotOpen[] {
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (names.includes('all')) return [...NOT_OPEN];
  const unknown = names.find((n) => !(NOT_OPEN as readonly string[]).includes(n));
  if (unknown) throw new Exit(EXIT.invalid, `--include ${unknown}: use ${NOT_OPEN.join(', ')} or all`);
  return [...new Set(names)] as NotOpen[];
}
