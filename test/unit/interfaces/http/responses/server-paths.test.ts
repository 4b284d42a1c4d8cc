import { ServerPaths } from '../../../../../src/interfaces/http/responses/server-paths';

describe('ServerPaths: where the server keeps things, kept out of problem details for all but operators', () => {
  const paths = new ServerPaths('/srv/svc/.svc/store', ['/srv/svc/.svc', '/etc/svc', '/', 'relative/dir', undefined, '/srv/svc/.svc/']);

  it('replaces the run store before the directory that holds it, and every known directory', () => {
    expect(paths.scrub('/srv/svc/.svc/store/documents/ab/x.bin: changed; restore /srv/svc/.svc/store from backup (see /etc/svc/api.json)')).toBe(
      '[run store]/documents/ab/x.bin: changed; restore [run store] from backup (see [server]/api.json)',
    );
    expect(paths.scrub('/srv/svc/.svc/keys/sar.pem: unreadable')).toBe('[server]/keys/sar.pem: unreadable');
  });

  it('never replaces `/` or a relative path, so messages without a location stay as they are', () => {
    expect(paths.scrub('GET /fedramp/public: no such route; relative/dir stays')).toBe('GET /fedramp/public: no such route; relative/dir stays');
  });

  it('replaces a PostgreSQL store location (the URL without its password)', () => {
    expect(new ServerPaths('postgres://svc@db.internal:5432/svc', []).scrub('postgres://svc@db.internal:5432/svc: cannot reach')).toBe(
      '[run store]: cannot reach',
    );
  });
});
