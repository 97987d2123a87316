// What another workstation does to the team's store, done straight in it: for the moments a test cannot
// bring about with a second app at the right instant.
import pg from 'pg';

/**
 * A workstation that pressed Send on the batch of this file and is checking and queuing it (its claim held
 * for `ms`), then vanished: it never queues anything, and its claim lapses.
 */
export async function sendClaimedElsewhere(teamStore: string, fileName: string, by: string, ms: number): Promise<void> {
  const client = new pg.Client({ connectionString: teamStore });
  await client.connect();
  try {
    await client.query('UPDATE batches SET send_claim = $1, send_claim_until = $2, sent_by = $3 WHERE file_name = $4', ['bench-9:1', Date.now() + ms, by, fileName]);
  } finally {
    await client.end();
  }
}
