import { z } from 'zod';
import { channelDef, type ChannelName, type ChannelOutput, type ChannelParsedInput, type Result } from '../contract/channels.ts';
import { toAppError } from './api/errors.ts';

export type Handlers = {
  [C in ChannelName]: (input: ChannelParsedInput<C>) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
};

/**
 * The one boundary every front door goes through (IPC, the browser bridge, the CLI): the input is
 * parsed against the contract before a handler sees it, and whatever happens comes back as a Result.
 */
export async function dispatch(handlers: Handlers, channel: string, input: unknown): Promise<Result<unknown>> {
  const def = channelDef(channel);
  if (!def) return invalid(`Unknown channel: ${channel}`);
  const parsed = def.input.safeParse(input);
  if (!parsed.success) return invalid(`Invalid input for ${channel}: ${z.prettifyError(parsed.error)}`);
  try {
    const handler = handlers[channel as ChannelName] as (input: unknown) => unknown;
    const value = await handler(parsed.data);
    return { ok: true, value: def.output.parse(value) };
  } catch (error) {
    return { ok: false, error: toAppError(error) };
  }
}

function invalid(message: string): Result<never> {
  return { ok: false, error: { code: 'INVALID_INPUT', message, retryable: false } };
}
