import { BaseCommand } from '../../base-command';
import { PortfolioReport, type PortfolioReportResult } from '../../../../application/agency/portfolio-report';
import { plural } from '../../../../domain/encoding/plural';
import { nowFlag, outFileFlag, parseNow } from '../../flags';
import { digest, withWrittenFile } from '../../json-output';

export default class AgencyReport extends BaseCommand {
  static summary = "Write the agency's portfolio as one self-contained HTML page: every provider's status, its trend over its pulls, and what needs action.";
  static description =
    "The rows of svc agency status (class, type, FedRAMP ID, last pull, last OCR and whether it is reviewed, next OCR due, open, overdue and accepted vulnerabilities, open incidents, SCNs, KSI changes, invalid or stale documents), each provider's trend over its pulls (KSIs implemented from the SDR; open and overdue vulnerabilities recomputed from the VDR at each pull's time with the class's PAIN timeframes) and every row's actions, on one page that loads nothing from the network (the dashboards' CSP-safe HTML and SVG charts; the table sorts and filters). Written atomically. Exit 0 when written, whatever the page shows: svc agency status is the gate.";
  static reads = 'every provider of agency.providers[] in svc.config.json, its pulls and reviews in the agency store (svc agency pull records them)';
  static examples = ['<%= config.bin %> <%= command.id %> --out portfolio.html', '<%= config.bin %> <%= command.id %> --out portfolio.html --now 2027-01-15'];
  static enableJsonFlag = true;
  static flags = {
    out: outFileFlag('HTML file to write.', true),
    now: { ...nowFlag, summary: 'Judge what is due and overdue at this time instead of now (ISO-8601 with a zone, or a date).' },
  };

  async run(): Promise<PortfolioReportResult> {
    const { flags } = await this.parse(AgencyReport);
    const now = parseNow(flags.now, '--now');
    const r = await this.resolve(PortfolioReport).execute({ out: flags.out as string, ...(now === undefined ? {} : { now }) });
    this.print(`Portfolio of ${plural(r.providers, 'provider')} written to ${r.out} (${digest(r.file.sha256)})`);
    return withWrittenFile(r);
  }
}
