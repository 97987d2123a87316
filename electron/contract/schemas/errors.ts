import { z } from 'zod';
import { ERROR_CODES } from '../../../common/errors.ts';

// The codes, their lines and their groups are common/errors.ts's; this is their schema.
export { ERROR_CODES };
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;
