/**
 * Labelled corpus for the secret scanner: positives (one expected finding each, with its exact
 * span and the length of its non-secret prefix) and negatives (text that must produce nothing).
 * Shared by the unit tests and by test/bench/secrets-compare.ts.
 *
 * No live-looking credential is ever written in this file: every secret is assembled at run time
 * from split prefixes and characters drawn from a seeded PRNG, so the repository passes push
 * protection and the corpus is the same on every run.
 */
import { githubChecksum } from '../../main/pipeline/secrets/rules.js';
import { prng } from '../helpers/prng.js';

/** The corpus's name for the shared PRNG. */
export const seededRandom = prng;

export interface PositiveSample {
  id: string;
  /** The rule id the scanner must report. */
  rule: string;
  text: string;
  start: number;
  end: number;
  /** Length of the documented non-secret marker at the start of the span (may be shown). */
  prefixLength: number;
}

export interface NegativeSample {
  id: string;
  kind: string;
  text: string;
}

export interface SecretCorpus {
  positives: PositiveSample[];
  negatives: NegativeSample[];
}


const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';
const BASE32 = UPPER + '234567';
const PASSWORD_CHARS = ALNUM + '!^-_+=.~';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** Joins split pieces: keeps token prefixes from appearing whole next to a token-shaped literal. */
const j = (...parts: string[]): string => parts.join('');

function bech32Checksum(hrp: string, data: number[]): number[] {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  const values = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31), ...data, 0, 0, 0, 0, 0, 0];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i] ?? 0;
  }
  chk ^= 1;
  return [0, 1, 2, 3, 4, 5].map((i) => (chk >>> (5 * (5 - i))) & 31);
}

export function buildSecretCorpus(seed = 0x5eed): SecretCorpus {
  const random = seededRandom(seed);
  const pick = (alphabet: string, n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet.charAt(Math.floor(random() * alphabet.length));
    return out;
  };
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
  const digitsNoLeadingZero = (n: number): string => pick('123456789', 1) + pick(DIGITS, n - 1);
  const b64url = (value: string): string => Buffer.from(value).toString('base64url');
  /**
   * A fake key body: the ASN.1 / OpenSSH header real keys start with (scanners such as secretlint
   * check it), then random bytes, base64 in 64-character lines.
   */
  const pemBody = (byteCount: number, newline: string, header: readonly number[] = []): string =>
    (Buffer.concat([Buffer.from(header), bytes(Math.max(0, byteCount - header.length))]).toString('base64').match(/.{1,64}/g) ?? []).join(newline);
  const PKCS1_RSA = [0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00];
  const PKCS8 = [0x30, 0x82, 0x04, 0xbe, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x82, 0x04, 0xa8];
  const PKCS8_ENCRYPTED = [0x30, 0x82, 0x05, 0x1c, 0x30, 0x4e, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d];
  const SEC1_EC = [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20];
  const OPENSSH = [...Buffer.from('openssh-key-v1\0'), 0x00, 0x00, 0x00, 0x04, ...Buffer.from('none')];
  const ghToken = (prefix: string): string => {
    const body = pick(ALNUM, 30);
    return prefix + body + githubChecksum(body);
  };

  const positives: PositiveSample[] = [];
  const pos = (id: string, rule: string, before: string, span: string, after: string, prefixLength: number): void => {
    positives.push({ id, rule, text: before + span + after, start: before.length, end: before.length + span.length, prefixLength });
  };
  const negatives: NegativeSample[] = [];
  const neg = (id: string, kind: string, text: string): void => {
    negatives.push({ id, kind, text });
  };

  // --- Cloud --------------------------------------------------------------------------------------
  pos('aws-key-id-credentials-file', 'aws-access-key-id',
    '[default]\naws_access_key_id = ', j('AK', 'IA') + pick(BASE32, 16), '\nregion = eu-west-1\n', 4);
  pos('aws-sts-key-id-json', 'aws-access-key-id',
    '{"Credentials": {"AccessKeyId": "', j('AS', 'IA') + pick(BASE32, 16), '", "Expiration": "2025-01-01T00:00:00Z"}}', 4);
  pos('aws-secret-credentials-file', 'aws-secret-access-key',
    'Profile notes for the deploy box:\naws_secret_access_key = ', pick(B64, 40), '\noutput = json\n', 0);
  pos('aws-secret-env', 'aws-secret-access-key',
    'export AWS_SECRET_ACCESS_KEY="', pick(B64, 40), '"\n', 0);

  const saKey = pemBody(1218, '\\n', PKCS8);
  const saHeader = j('-----BEGIN ', 'PRIVATE KEY-----');
  pos('gcp-service-account-json', 'gcp-service-account-key',
    `{\n  "type": "service_account",\n  "project_id": "acme-prod-4821",\n  "private_key_id": "${pick(HEX, 40)}",\n  "private_key": "`,
    `${saHeader}\\n${saKey}\\n-----END PRIVATE KEY-----`,
    '\\n",\n  "client_email": "deployer@acme-prod-4821.iam.gserviceaccount.com"\n}', saHeader.length);
  pos('gcp-api-key-firebase', 'gcp-api-key',
    'const firebaseConfig = {\n  apiKey: "', j('AI', 'za') + pick(B64URL, 35), '",\n  authDomain: "acme.firebaseapp.com",\n};', 4);
  pos('google-oauth-client-secret', 'google-oauth-client-secret',
    '{"web": {"client_id": "1234.apps.googleusercontent.com", "client_secret": "', j('GOC', 'SPX-') + pick(B64URL, 28), '"}}', 7);
  pos('google-oauth-access-token', 'google-oauth-access-token',
    'curl -H "Authorization: Bearer ', j('ya', '29.') + pick(B64URL, 160), '" https://www.googleapis.com/drive/v3/files', 5);
  pos('azure-storage-connection-string', 'azure-connection-string-key',
    'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acmeblobs;AccountKey=',
    pick(B64, 86) + '==', ';EndpointSuffix=core.windows.net"', 0);
  pos('azure-service-bus', 'azure-connection-string-key',
    'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=',
    pick(ALNUM + '+/', 43) + '=', '\n', 0);
  pos('azure-sas-url', 'azure-sas-signature',
    'Download link: https://acme.blob.core.windows.net/exports/report.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-03-01T00:00:00Z&sig=',
    pick(ALNUM, 44) + '%3D', ' (valid for a week)', 0);
  pos('azure-ad-client-secret', 'azure-ad-client-secret',
    'azure:\n  tenantId: 0f3c9a55-1b2d-4e6f-8a7b-9c0d1e2f3a4b\n  clientSecret: ',
    pick(ALNUM, 3) + pick(DIGITS, 1) + 'Q~' + pick(ALNUM + '_~.-', 33) + pick(ALNUM, 1), '\n', 0);
  pos('digitalocean-pat', 'digitalocean-token',
    'doctl auth init --access-token ', j('dop', '_v1_') + pick(HEX, 64), '\n', 7);
  pos('heroku-api-key', 'heroku-api-key',
    'heroku config: HEROKU_API_KEY is ', j('HR', 'KU-') + 'AA' + pick(B64URL, 58), ' (rotated monthly)', 5);
  pos('netlify-token', 'netlify-token',
    'netlify deploy --auth ', j('nf', 'p_') + pick(ALNUM, 36), ' --prod', 4);
  pos('supabase-token', 'supabase-token',
    'supabase login --token ', j('sb', 'p_') + pick(HEX, 40), '\n', 4);
  pos('databricks-token', 'databricks-token',
    '[DEFAULT]\nhost = https://adb-123.azuredatabricks.net\ntoken = ', j('da', 'pi') + pick(HEX, 32), '\n', 4);
  pos('vault-token', 'hashicorp-vault-token',
    'VAULT_ADDR=https://vault.internal:8200 VAULT_TOKEN=', j('hv', 's.') + pick(B64URL, 95), ' vault kv get secret/app', 4);
  pos('terraform-cloud-token', 'terraform-cloud-token',
    'credentials "app.terraform.io" {\n  token = "', pick(ALNUM, 14) + j('.atlas', 'v1.') + pick(ALNUM + '_=-', 67), '"\n}', 0);
  pos('tailscale-key', 'tailscale-key',
    'tailscale up --authkey=', j('tskey', '-auth-') + 'k' + pick(ALNUM, 11) + '-' + pick(ALNUM, 33), ' --ssh', 11);
  pos('doppler-token', 'doppler-token',
    'The CI runner reads secrets with ', j('dp.', 'pt.') + pick(ALNUM, 43), ' through the Doppler CLI.', 6);
  pos('pulumi-token', 'pulumi-token',
    'PULUMI_ACCESS_TOKEN=', j('pu', 'l-') + pick(HEX, 40), '\n', 4);
  pos('planetscale-token', 'planetscale-token',
    'pscale auth login --service-token ', j('pscale', '_tkn_') + pick(ALNUM + '_', 43), '\n', 11);

  // --- Source hosting and registries ------------------------------------------------------------
  pos('github-pat-classic', 'github-token',
    'Remember: the release script uses the token ', ghToken(j('gh', 'p_')), ' (expires in 30 days).', 4);
  pos('github-oauth-json', 'github-token',
    '{"access_token": "', ghToken(j('gh', 'o_')), '", "scope": "repo,gist", "token_type": "bearer"}', 4);
  {
    const url = j('https://x-access-', 'token:') + ghToken(j('gh', 's_'));
    pos('github-installation-token-in-remote-url', 'github-token', 'git remote set-url origin ', url, '@github.com/acme/app.git', 'https://x-access-token:'.length);
  }
  pos('github-fine-grained-pat', 'github-fine-grained-pat',
    'gh auth login --with-token <<< ', j('github', '_pat_') + pick(ALNUM, 22) + '_' + pick(ALNUM, 59), '\n', 11);
  pos('gitlab-pat', 'gitlab-token',
    'variables:\n  GITLAB_PAT: "', j('gl', 'pat-') + pick(B64URL, 20), '"\n', 6);
  pos('bitbucket-app-password', 'bitbucket-app-password',
    'git clone https://alice@bitbucket.org/acme/api.git  # app password ', j('AT', 'BB') + pick(ALNUM, 32), '\n', 4);
  pos('atlassian-api-token', 'atlassian-api-token',
    'JIRA_API_TOKEN=', j('ATA', 'TT3') + pick(ALNUM + '_-', 180) + '=' + pick(HEX.toUpperCase(), 8), '\n', 6);
  pos('npm-token-npmrc', 'npm-token',
    '//registry.npmjs.org/:_authToken=', ghToken(j('np', 'm_')), '\n', 4);
  {
    const legacy = [pick(HEX, 8), pick(HEX, 4), pick(HEX, 4), pick(HEX, 4), pick(HEX, 12)].join('-');
    pos('npmrc-legacy-uuid-token', 'npmrc-auth-token', '@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=', legacy, '\n', 0);
  }
  pos('pypi-token-pypirc', 'pypi-token',
    '[pypi]\nusername = __token__\npassword = ', j('py', 'pi-AgEIcHlwaS5vcmc') + pick(B64URL, 120), '\n', 5);
  pos('rubygems-token', 'rubygems-token',
    '---\n:rubygems_api_key: ', j('ruby', 'gems_') + pick(HEX, 48), '\n', 9);
  pos('dockerhub-pat', 'dockerhub-pat',
    'docker login -u acmebot -p ', j('dckr', '_pat_') + pick(B64URL, 27), '\n', 9);

  // --- Chat, mail, messaging ----------------------------------------------------------------------
  pos('slack-bot-token', 'slack-bot-token',
    'SLACK_BOT_TOKEN=', j('xo', 'xb-') + digitsNoLeadingZero(12) + '-' + digitsNoLeadingZero(13) + '-' + pick(ALNUM, 24), '\n', 5);
  pos('slack-user-token', 'slack-user-token',
    'The old integration still posts as me with ', j('xo', 'xp-') + [digitsNoLeadingZero(12), digitsNoLeadingZero(12), digitsNoLeadingZero(13)].join('-') + '-' + pick(HEX, 32), '.', 5);
  pos('slack-legacy-workspace-token', 'slack-token',
    'legacy token: ', j('xo', 'xa-') + '2-' + pick(ALNUM, 40), '\n', 5);
  pos('slack-app-token', 'slack-app-token',
    'SLACK_APP_TOKEN=', j('xa', 'pp-') + '1-A' + pick(UPPER + DIGITS, 10) + '-' + digitsNoLeadingZero(13) + '-' + pick(HEX, 64), '\n', 5);
  {
    const prefix = j('https://hooks.', 'slack.com/services/');
    pos('slack-webhook-url', 'slack-webhook-url', 'Alerts go to ', prefix + 'T' + pick(UPPER + DIGITS, 8) + '/B' + pick(UPPER + DIGITS, 10) + '/' + pick(ALNUM, 24), ' via the alertmanager receiver.', prefix.length);
  }
  pos('discord-bot-token', 'discord-bot-token',
    'client.login("', b64url(digitsNoLeadingZero(18)) + '.' + pick(B64URL, 6) + '.' + pick(B64URL, 38), '");', 0);
  {
    const prefix = j('https://discord.com/', 'api/webhooks/');
    pos('discord-webhook-url', 'discord-webhook-url', 'DISCORD_WEBHOOK=', prefix + digitsNoLeadingZero(18) + '/' + pick(B64URL, 68), '\n', prefix.length);
  }
  pos('telegram-bot-token', 'telegram-bot-token',
    'bot = Bot(token="', digitsNoLeadingZero(10) + ':AA' + pick(B64URL, 33), '")', 0);
  pos('twilio-api-key', 'twilio-api-key',
    'TWILIO_API_KEY=', j('S', 'K') + pick(HEX, 32), '\n', 2);
  pos('sendgrid-api-key', 'sendgrid-api-key',
    "sgMail.setApiKey('", j('S', 'G.') + pick(B64URL, 22) + '.' + pick(B64URL, 43), "');", 3);
  pos('mailgun-api-key', 'mailgun-api-key',
    'curl -s --user "api:', j('ke', 'y-') + pick(HEX, 32), '" https://api.mailgun.net/v3/acme.com/messages', 4);
  pos('mailchimp-api-key', 'mailchimp-api-key',
    'mailchimp.setConfig({ apiKey: "', pick(HEX, 32) + '-us14', '", server: "us14" });', 0);

  // --- Payments -------------------------------------------------------------------------------------
  pos('stripe-live-secret', 'stripe-secret-key',
    'STRIPE_SECRET_KEY=', j('sk_', 'live_') + pick(ALNUM, 24), '\n', 8);
  pos('stripe-test-secret', 'stripe-secret-key',
    "const stripe = new Stripe('", j('sk_', 'test_') + pick(ALNUM, 99), "');", 8);
  pos('stripe-restricted', 'stripe-restricted-key',
    'Use the read-only key ', j('rk_', 'live_') + pick(ALNUM, 99), ' for the reporting job.', 8);
  pos('stripe-webhook-secret', 'stripe-webhook-secret',
    'STRIPE_WEBHOOK_SECRET=', j('wh', 'sec_') + pick(ALNUM, 32), '\n', 6);
  pos('square-access-token', 'square-access-token',
    'SQUARE_ACCESS_TOKEN=', j('EA', 'AA') + pick(B64URL, 60), '\n', 4);
  pos('square-legacy-access-token', 'square-access-token',
    'square token: ', j('sq0', 'atp-') + pick(B64URL, 22), '\n', 7);
  pos('square-oauth-secret', 'square-oauth-secret',
    'application secret ', j('sq0', 'csp-') + pick(B64URL, 43), '\n', 7);
  {
    const prefix = j('access_', 'token$production$');
    pos('braintree-access-token', 'braintree-access-token', 'gateway = braintree.BraintreeGateway(access_token="', prefix + pick(LOWER + DIGITS, 16) + '$' + pick(HEX, 32), '")', prefix.length);
  }
  pos('shopify-token', 'shopify-token',
    'X-Shopify-Access-Token: ', j('shp', 'at_') + pick(HEX, 32), '\n', 6);
  pos('facebook-access-token', 'facebook-access-token',
    'GET https://graph.facebook.com/v19.0/me?access_token=', j('EA', 'AG') + pick(ALNUM, 180), '&fields=id,name', 3);

  // --- AI providers -----------------------------------------------------------------------------------
  pos('anthropic-api-key', 'anthropic-api-key',
    'ANTHROPIC_API_KEY=', j('sk-', 'ant-', 'api03-') + pick(B64URL, 93) + 'AA', '\n', 7);
  pos('openai-project-key', 'openai-api-key',
    'client = OpenAI(api_key="', j('sk-', 'proj-') + pick(B64URL, 74) + j('T3Blbk', 'FJ') + pick(B64URL, 74), '")', 8);
  pos('openai-legacy-key', 'openai-api-key',
    'I pasted my key ', j('s', 'k-') + pick(ALNUM, 20) + j('T3Blbk', 'FJ') + pick(ALNUM, 20), ' into the notebook by mistake.', 3);
  pos('huggingface-token', 'huggingface-token',
    'huggingface-cli login --token ', j('h', 'f_') + pick(UPPER + LOWER, 34), '\n', 3);
  pos('groq-api-key', 'groq-api-key',
    'GROQ_API_KEY=', j('gs', 'k_') + pick(ALNUM, 52), '\n', 4);
  pos('replicate-api-token', 'replicate-api-token',
    'export REPLICATE_API_TOKEN=', j('r', '8_') + pick(ALNUM, 37), '\n', 3);
  pos('perplexity-api-key', 'perplexity-api-key',
    'PPLX key for the research agent: ', j('pp', 'lx-') + pick(ALNUM, 48), '\n', 5);
  pos('xai-api-key', 'xai-api-key',
    'XAI_API_KEY=', j('xa', 'i-') + pick(ALNUM, 80), '\n', 4);

  // --- Observability and productivity -----------------------------------------------------------------
  pos('datadog-api-key', 'datadog-api-key', 'DD_API_KEY=', pick(HEX, 32), '\nDD_SITE=datadoghq.eu\n', 0);
  pos('newrelic-user-key', 'newrelic-key', 'NEW_RELIC_API_KEY=', j('NR', 'AK-') + pick(UPPER + DIGITS, 27), '\n', 5);
  {
    const prefix = `https://${pick(HEX, 32)}:`;
    pos('sentry-legacy-dsn', 'sentry-dsn-secret', "Sentry.init({ dsn: '", prefix + pick(HEX, 32), "@o123456.ingest.sentry.io/4505123' });", prefix.length);
  }
  pos('sentry-user-token', 'sentry-auth-token', 'SENTRY_AUTH_TOKEN=', j('sntr', 'yu_') + pick(HEX, 64), '\n', 7);
  pos('grafana-service-account-token', 'grafana-token', 'GRAFANA_TOKEN=', j('gl', 'sa_') + pick(ALNUM, 32) + '_' + pick(HEX, 8), '\n', 5);
  pos('dynatrace-token', 'dynatrace-token', 'Api-Token ', j('dt0', 'c01.') + pick(UPPER + DIGITS, 24) + '.' + pick(UPPER + DIGITS, 64), '\n', 7);
  pos('linear-api-key', 'linear-api-key', 'LINEAR_API_KEY=', j('lin', '_api_') + pick(ALNUM, 40), '\n', 8);
  pos('notion-token', 'notion-token', 'const notion = new Client({ auth: "', j('nt', 'n_') + pick(DIGITS, 11) + pick(ALNUM, 35), '" });', 4);
  pos('notion-legacy-token', 'notion-token', 'NOTION_TOKEN=', j('sec', 'ret_') + pick(ALNUM, 43), '\n', 7);
  pos('postman-api-key', 'postman-api-key', 'x-api-key: ', j('PM', 'AK-') + pick(HEX, 24) + '-' + pick(HEX, 34), '\n', 5);
  pos('sourcegraph-token', 'sourcegraph-token', 'SRC_ACCESS_TOKEN=', j('sg', 'p_') + pick(HEX, 16) + '_' + pick(HEX, 40), '\n', 4);
  pos('onepassword-service-account', 'onepassword-service-account-token',
    'OP_SERVICE_ACCOUNT_TOKEN=', j('op', 's_eyJ') + pick(B64, 320), '\n', 4);
  {
    const words: number[] = [];
    const raw = bytes(32);
    let acc = 0;
    let bits = 0;
    for (const byte of raw) {
      acc = (acc << 8) | byte;
      bits += 8;
      while (bits >= 5) {
        bits -= 5;
        words.push((acc >>> bits) & 31);
      }
    }
    if (bits > 0) words.push((acc << (5 - bits)) & 31);
    const hrp = 'age-secret-key-';
    const data = [...words, ...bech32Checksum(hrp, words)].map((v) => BECH32.charAt(v)).join('');
    pos('age-secret-key', 'age-secret-key', '# created: 2024-05-01\n# public key: age1...\n', j('AGE-SE', 'CRET-KEY-1') + data.toUpperCase(), '\n', 15);
  }

  // --- Private keys ----------------------------------------------------------------------------------
  const pem = (label: string, body: string, newline = '\n'): { text: string; header: string } => {
    const header = j('-----BEGIN ', label, '-----');
    return { text: `${header}${newline}${body}${newline}-----END ${label}-----`, header };
  };
  {
    const k = pem('RSA PRIVATE KEY', pemBody(1192, '\n', PKCS1_RSA));
    pos('pem-rsa', 'private-key-pem', 'Here is the staging deploy key:\n\n', k.text, '\n\nDo not share it.', k.header.length);
  }
  {
    const k = pem('EC PRIVATE KEY', pemBody(121, '\n', SEC1_EC));
    pos('pem-ec', 'private-key-pem', '', k.text, '\n', k.header.length);
  }
  {
    const k = pem('OPENSSH PRIVATE KEY', pemBody(399, '\n', OPENSSH));
    pos('pem-openssh', 'private-key-pem', 'cat ~/.ssh/id_ed25519\n', k.text, '\n$ ', k.header.length);
  }
  {
    const k = pem('PGP PRIVATE KEY BLOCK', `Comment: exported for the backup box\n\nlQOYBF${pemBody(700, '\n')}\n=${pick(B64, 4)}`);
    pos('pem-pgp', 'private-key-pem', 'gpg --export-secret-keys --armor alice@example.org\n', k.text, '\n', k.header.length);
  }
  {
    const k = pem('PRIVATE KEY', pemBody(1218, '\n', PKCS8));
    pos('pem-pkcs8', 'private-key-pem', 'tls:\n  key: |\n', k.text, '\n  cert: ./server.crt\n', k.header.length);
  }
  {
    const k = pem('ENCRYPTED PRIVATE KEY', pemBody(1312, '\r\n', PKCS8_ENCRYPTED), '\r\n');
    pos('pem-encrypted-pkcs8-crlf', 'private-key-pem', 'key.pem (passphrase in the vault):\r\n', k.text, '\r\n', k.header.length);
  }
  {
    const k = pem('RSA PRIVATE KEY', `Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${pick(HEX, 32).toUpperCase()}\n\n${pemBody(1192, '\n')}`);
    pos('pem-rsa-legacy-encrypted', 'private-key-pem', '', k.text, '', k.header.length);
  }
  {
    const k = pem('EC PRIVATE KEY', pemBody(121, '\\n', SEC1_EC), '\\n');
    pos('pem-in-json-escaped', 'private-key-pem', '{"kid": "signing-2024", "pem": "', k.text, '\\n"}', k.header.length);
  }
  {
    const header = j('-----BEGIN ', 'RSA PRIVATE KEY-----');
    const body = pemBody(190, '\n', PKCS1_RSA);
    pos('pem-truncated-no-footer', 'private-key-pem', 'The key starts like this:\n', `${header}\n${body}`, '\n\n(the rest was cut off by the chat window)', header.length);
  }

  // --- Structural ------------------------------------------------------------------------------------
  {
    const token = [b64url('{"alg":"HS256","typ":"JWT"}'), b64url(`{"sub":"user_${pick(DIGITS, 6)}","role":"admin","iat":1716200000}`), pick(B64URL, 43)].join('.');
    pos('jwt-cookie', 'jwt', 'Set-Cookie: session=', token, '; Path=/; HttpOnly; Secure', 3);
  }
  {
    const token = [b64url('{"alg":"RS256","kid":"k1"}'), b64url(`{"iss":"https://auth.acme.dev","aud":"api","exp":1716203600,"sid":"${pick(ALNUM, 16)}"}`), pick(B64URL, 342)].join('.');
    pos('jwt-bearer-header', 'jwt', 'curl -H "Authorization: Bearer ', token, '" https://api.acme.dev/v1/me', 3);
  }
  pos('bearer-opaque-token', 'bearer-token',
    'GET /v2/orders HTTP/1.1\nHost: api.acme.dev\nAuthorization: Bearer ', pick(ALNUM, 40) + '.' + pick(ALNUM, 12), '\nAccept: application/json\n', 0);
  pos('basic-auth-header', 'basic-auth-header',
    "fetch(url, { headers: { 'Authorization': 'Basic ", Buffer.from(`deploy:${pick(PASSWORD_CHARS, 18)}`).toString('base64'), "' } })", 0);

  const urlCase = (id: string, rule: string, before: string, scheme: string, user: string, password: string, after: string): void => {
    const prefix = `${scheme}://${user}:`;
    pos(id, rule, before, prefix + password, after, prefix.length);
  };
  urlCase('postgres-url', 'connection-string-password', 'DATABASE_URL=', 'postgres', 'app', pick(ALNUM, 20), '@db.internal:5432/app?sslmode=require\n');
  urlCase('mongodb-srv-url', 'connection-string-password', 'const uri = "', 'mongodb+srv', 'analytics', pick(ALNUM, 16), '@cluster0.ab1cd.mongodb.net/?retryWrites=true";');
  urlCase('redis-url-no-user', 'connection-string-password', 'REDIS_URL=', 'rediss', '', pick(ALNUM, 32), '@cache.acme.dev:6380/0\n');
  urlCase('amqp-url', 'connection-string-password', 'broker: ', 'amqps', 'worker', pick(PASSWORD_CHARS, 14), '@mq.acme.dev:5671/prod\n');
  urlCase('postgres-url-unencoded-at', 'connection-string-password', 'psql ', 'postgresql', 'svc', `${pick(ALNUM, 8)}@${pick(ALNUM, 6)}`, '@db.internal/app');
  urlCase('mysql-url-weak-but-real', 'connection-string-password', 'mysql -h db --url ', 'mysql', 'root', 'Winter2024', '@10.0.3.7:3306/shop\n');
  urlCase('https-basic-in-url', 'url-with-password', 'Mirror: ', 'https', 'ci-bot', pick(ALNUM, 18), '@artifacts.acme.dev/repository/npm/ (read-only)');
  urlCase('ftp-url', 'url-with-password', 'Upload the build with curl -T app.zip ', 'ftp', 'uploader', pick(ALNUM, 12), '@ftp.acme.dev/incoming/');

  // --- Generic assignments -----------------------------------------------------------------------------
  pos('env-db-password', 'generic-high-entropy-assignment', 'DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=', pick(PASSWORD_CHARS, 20), '\nDB_PORT=5432\n', 0);
  pos('yaml-password', 'generic-high-entropy-assignment', 'smtp:\n  host: smtp.acme.dev\n  password: ', pick(PASSWORD_CHARS, 16), '\n  port: 587\n', 0);
  pos('json-client-secret', 'generic-high-entropy-assignment', '{"client_id": "acme-web", "client_secret": "', pick(ALNUM, 32), '"}', 0);
  pos('python-api-key', 'generic-high-entropy-assignment', "COHERE_API_KEY = '", pick(ALNUM, 40), "'\n", 0);
  pos('toml-secret-key', 'generic-high-entropy-assignment', '[server]\nsecret_key = "', pick(HEX, 64), '"\n', 0);
  pos('camel-case-auth-token', 'generic-high-entropy-assignment', 'const config = { baseUrl: "https://api.acme.dev", authToken: "', pick(ALNUM, 24), '" };', 0);
  pos('cli-password-flag', 'generic-high-entropy-assignment', 'psql --host=db --username=app --password=', pick(ALNUM, 14), ' app', 0);
  pos('ado-net-connection-string', 'generic-high-entropy-assignment', '"Server=tcp:acme.database.windows.net,1433;User ID=app;Password=', pick(ALNUM, 18), ';Encrypt=True;"', 0);
  pos('short-strong-password', 'generic-high-entropy-assignment', 'The wifi password: ', 'Tr0ub4dor&3x', ' (guest network)', 0);

  // =====================================================================================================
  // Negatives
  const uuid = (): string => [pick(HEX, 8), pick(HEX, 4), '4' + pick(HEX, 3), '8' + pick(HEX, 3), pick(HEX, 12)].join('-');

  neg('sha1-in-prose', 'hash', `The fixture file has SHA-1 ${pick(HEX, 40)}; if it changes, regenerate the snapshot.`);
  neg('sha256sum-output', 'hash', `${pick(HEX, 64)}  dist/nuzo-0.1.0.tgz\n${pick(HEX, 64)}  dist/nuzo-0.1.0.zip\n`);
  neg('md5-json', 'hash', `{"file": "logo.png", "md5": "${pick(HEX, 32)}", "etag": "\\"${pick(HEX, 32)}\\""}`);
  neg('git-log', 'commit', `commit ${pick(HEX, 40)}\nAuthor: Alice <alice@example.org>\n\n    Fix token refresh race (#412)\n\nMerge: ${pick(HEX, 7)} ${pick(HEX, 7)}\n`);
  neg('git-short-ids', 'commit', `Reverted ${pick(HEX, 7)} and cherry-picked ${pick(HEX, 12)} onto release/1.4.`);
  neg('uuid-json', 'uuid', `{"request_id": "${uuid()}", "trace_id": "${uuid()}", "status": 200}`);
  neg('uuid-prose', 'uuid', `The memory ${uuid()} was merged into ${uuid()} after review.`);
  neg('docker-digest', 'hash', `image: ghcr.io/acme/api@sha256:${pick(HEX, 64)}`);
  neg('base64-of-prose', 'base64', `The webhook body was ${Buffer.from('The quick brown fox jumps over the lazy dog, twice, before breakfast.').toString('base64')} which decodes to a pangram.`);
  neg('data-uri', 'base64', `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${pick(B64, 400)}=" alt="logo">`);
  neg('npm-integrity', 'integrity', `"node_modules/zod": {\n  "version": "4.0.0",\n  "resolved": "https://registry.npmjs.org/zod/-/zod-4.0.0.tgz",\n  "integrity": "sha512-${pick(B64, 86)}=="\n}`);
  neg('subresource-integrity', 'integrity', `<script src="https://cdn.example.org/app.js" integrity="sha384-${pick(B64, 64)}" crossorigin="anonymous"></script>`);
  neg('ssh-rsa-public-key', 'public-key', `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${pick(B64, 520)}= alice@laptop`);
  neg('ssh-ed25519-public-key', 'public-key', `authorized_keys:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pick(B64, 43)} deploy@ci`);
  neg('pem-public-key', 'public-key', `${j('-----BEGIN ', 'PUBLIC KEY-----')}\n${pemBody(294, '\n')}\n-----END PUBLIC KEY-----`);
  neg('pem-certificate', 'public-key', `${j('-----BEGIN ', 'CERTIFICATE-----')}\n${pemBody(900, '\n')}\n-----END CERTIFICATE-----`);
  neg('pem-private-key-doc-example', 'placeholder', `${j('-----BEGIN ', 'RSA PRIVATE KEY-----')}\nMIIEpAIBAAKCAQEA...\n...\n-----END RSA PRIVATE KEY-----`);
  neg('aws-doc-example-key-id', 'placeholder', `aws configure\nAWS Access Key ID [None]: ${j('AKIA', 'IOSFODNN7', 'EXAMPLE')}\nDefault region name [None]: us-west-2`);
  neg('aws-doc-example-secret', 'placeholder', `aws_secret_access_key = ${j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCY', 'EXAMPLEKEY')}`);
  neg('aws-masked-key-id', 'placeholder', `AWS_ACCESS_KEY_ID=${j('AKIA', 'XXXXXXXXXXXXXXXX')}`);
  neg('openai-ellipsis', 'placeholder', 'Set OPENAI_API_KEY=sk-... in your shell before running the notebook.');
  neg('openai-xxx', 'placeholder', 'OPENAI_API_KEY="sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"');
  neg('env-example-file', 'placeholder', `OPENAI_API_KEY=\nANTHROPIC_API_KEY=${j('sk-', 'ant-')}...\nSTRIPE_SECRET_KEY=${j('sk_', 'live_')}your_key_here\nGITHUB_TOKEN=<token>\n`);
  neg('your-api-key', 'placeholder', 'api_key = "YOUR_API_KEY"');
  neg('angle-token', 'placeholder', 'curl -H "Authorization: Bearer <token>" https://api.acme.dev/v1/me');
  neg('shell-token-var', 'placeholder', 'curl -H "Authorization: Bearer $TOKEN" -H "X-Api-Key: ${API_KEY}" https://api.acme.dev');
  neg('github-actions-secret', 'placeholder', 'env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  token: ${GITHUB_TOKEN}\n');
  neg('process-env', 'code', 'const apiKey = process.env.OPENAI_API_KEY;\nconst client = new OpenAI({ apiKey });');
  neg('python-env', 'code', 'password = os.environ["DB_PASSWORD"]\ntoken = os.getenv("GITHUB_TOKEN")\n');
  neg('go-getenv', 'code', 'token := os.Getenv("GITHUB_TOKEN")\nif token == "" {\n\treturn errNoToken\n}');
  neg('password-changeme', 'placeholder', 'Default login for the dev container: admin / password=changeme (change it on first login).');
  neg('password-mask', 'placeholder', 'PASSWORD=********\nSECRET="••••••••"\n');
  neg('jinja-template', 'placeholder', 'auth_token: "{{ vault_auth_token }}"\npassword: %(db_password)s\n');
  neg('postgres-doc-url', 'placeholder', 'Connect with postgres://user:password@localhost:5432/mydb and run the migrations.');
  neg('mongodb-doc-url', 'placeholder', 'MONGO_URI=mongodb+srv://user:pass@cluster0.example.mongodb.net/test');
  neg('redis-masked-url', 'placeholder', 'redis://:****@localhost:6379/0');
  // Split so that repository scanners do not flag the corpus's own documentation examples.
  neg('default-credentials-urls', 'placeholder', j('Local stack: postgres://postgres:', 'postgres@localhost:5432/app, amqp://guest:', 'guest@localhost:5672, mysql://root:', 'root@127.0.0.1/shop'));
  neg('templated-url', 'placeholder', j('DATABASE_URL=postgres://${DB_USER}:', '${DB_PASSWORD}@db:5432/app\nBACKUP_URL=postgres://app:', '<password>@backup:5432/app'));
  neg('https-doc-url', 'placeholder', 'The format is https://username:password@host/path; never commit it.');
  neg('urls-without-credentials', 'url', 'Clone https://alice@github.com/acme/app.git or git@github.com:acme/app.git; docs at https://docs.acme.dev:8443/v1/guide@latest and mongodb://localhost:27017/app');
  neg('code-identifiers', 'code', 'const hash = await getPasswordHash(user);\nif (user.passwordHash !== hash) resetPasswordToken(user.id);\nconst passwordInput = document.querySelector("#password");');
  neg('token-counts', 'code', 'token_count = 42\nmax_tokens: 4096\n{"prompt_tokens": 812, "completion_tokens": 97, "total_tokens": 909}');
  neg('ts-types', 'code', 'interface Credentials {\n  username: string;\n  password: string;\n  apiKey?: string;\n}\nconst schema = z.object({ password: z.string().min(12), token: z.string() });');
  neg('assignment-from-code', 'code', 'const password = req.body.password;\npassword = passwordInput\nsecret = getpass.getpass()\nconst token = await getToken(scope);');
  neg('file-paths', 'path', 'Keys live in /home/alice/.ssh/id_rsa and ~/.aws/credentials; on Windows C:\\Users\\bob\\AppData\\Roaming\\npm\\.npmrc. PWD=/home/alice/projects/nuzo');
  neg('secret-prose', 'prose', 'Rotate the API key every 90 days; the token expires after one hour and the secret must never be logged. The password policy needs 12 characters. Passwordless login uses magic links.');
  neg('literal-values', 'code', 'secret: true\ntoken: null\npassword: required\nsecret_name = "prod/db/credentials"\nSECRET_KEY_LENGTH = 32\napi_key_header = "X-API-Key"');
  neg('slack-webhook-doc', 'placeholder', `SLACK_WEBHOOK_URL=${j('https://hooks.', 'slack.com/services/')}T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`);
  neg('jwt-io-sample', 'placeholder', `Decode this on jwt.io: ${[b64url('{"alg":"HS256","typ":"JWT"}'), b64url('{"sub":"1234567890","name":"John Doe","iat":1516239022}'), 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'].join('.')}`);
  neg('base64-json-not-jwt', 'base64', `The cursor is ${b64url('{"offset":200,"limit":50}')} and the next one is ${b64url('{"offset":250,"limit":50}')}.`);
  {
    const body = pick(ALNUM, 30);
    const good = githubChecksum(body);
    const bad = good.charAt(0) === 'A' ? `B${good.slice(1)}` : `A${good.slice(1)}`;
    neg('github-token-bad-checksum', 'checksum', `Example from a blog post: ${j('gh', 'p_')}${body}${bad}`);
  }
  {
    const body = pick(ALNUM, 30);
    const good = githubChecksum(body);
    const bad = good.charAt(5) === 'z' ? `${good.slice(0, 5)}y` : `${good.slice(0, 5)}z`;
    neg('npm-token-bad-checksum', 'checksum', `Tutorial token ${j('np', 'm_')}${body}${bad} (not real)`);
  }
  neg('stripe-placeholder', 'placeholder', `Stripe.api_key = "${j('sk_', 'test_')}xxxxxxxxxxxxxxxxxxxxxxxx"\n# or ${j('sk_', 'live_')}...`);
  neg('pagination-token', 'code', `{"items": [], "next_page_token": "${pick(ALNUM, 40)}", "csrf_token": "${pick(ALNUM, 32)}"}`);
  neg('misc-identifiers', 'misc', `arn:aws:iam::123456789012:role/DeployRole\n10.0.3.7, 2001:db8::1, v1.14.2, 2024-05-01T12:00:00Z, #1e90ff, main.${pick(HEX, 8)}.js`);
  neg('short-weak-value', 'placeholder', 'password=test1234\npassword: hunter2\nDB_PASSWORD=admin\n');
  neg('k8s-secret-ref', 'code', 'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password\n');
  neg('prefix-letters-in-words', 'prose', 'The risk-based review moved the desk-side task-list to key-value storage; ask-me-anything threads and non-user pages stay public. Mask your screen, then speak.');
  neg('empty-assignments', 'placeholder', 'PASSWORD=\n"api_key": "",\nsecret: \'\'\ntoken=\n');
  neg('screaming-snake-reference', 'code', 'api_key = OPENAI_API_KEY_V2\ntoken = DEFAULT_TOKEN_NAME');

  return { positives, negatives };
}
