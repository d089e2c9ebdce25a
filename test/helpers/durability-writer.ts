/**
 * Child process for the durability test: writes memories in a loop and prints each id only after
 * its transaction committed. Whatever it printed was acknowledged and must survive a SIGKILL.
 */
import { Store } from '../../main/store/store.js';
import { executeWrite } from '../../main/pipeline/pipeline.js';
import { personActing } from '../../main/consent/proof.js';

const home = process.argv[2]!;
const round = process.argv[3] ?? '0';
const store = Store.open(home, `durability writer ${round}`);
const requester = { actor: 'durability', channel: 'window' as const, projects: [], person: true };
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const memory = executeWrite(store, { content: `durability round ${round} item ${i} ${'lorem ipsum '.repeat(i % 7)}`, scope: 'user' }, requester, personActing());
  process.stdout.write(`${memory.id}\n`);
}
