import { cqlCsv } from '../../../src/interfaces/cli/cql-output';

describe('cqlCsv', () => {
  it('writes cells a spreadsheet would evaluate as text, behind an apostrophe, like the POA&M CSV', () => {
    expect(
      cqlCsv(
        ['ksi_id', 'title', 'details', 'controls'],
        [
          ['KSI-IA-02', '=HYPERLINK("http://evil.example","x")', '-1+2', ['@SUM(A1)', 'ac-2']],
          ['KSI-IA-03', '+1', '\tTAB', undefined],
        ],
      ),
    ).toBe(
      'ksi_id,title,details,controls\r\n' + `KSI-IA-02,"'=HYPERLINK(""http://evil.example"",""x"")",'-1+2,"'@SUM(A1), ac-2"\r\n` + "KSI-IA-03,'+1,'\tTAB,\r\n",
    );
  });
});
