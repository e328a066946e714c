/** The rich mirror's own edges, where a fuzz run found it answering a valid input with a Server fault. */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../runtime/index.js';
import { richHandlers } from './rich-handlers.js';

describe('NextDate', () => {
  const nextDate = (after: string) => richHandlers.NextDate({ after }, {} as never);
  it('answers the next day in the form it came in', async () => {
    expect(await nextDate('2024-02-28T10:00:00Z')).toEqual({ NextDateResult: '2024-02-29T10:00:00Z' });
  });
  it('refuses a date-time with no next day before year 10000 (a Client fault), not a crash', async () => {
    await expect(async () => nextDate('9999-12-31T00:00:00.0-14:00')).rejects.toThrow(ServiceError);
    await expect(async () => nextDate('9999-12-31T00:00:00Z')).rejects.toThrow(ServiceError);
  });
});
