/** The FedRAMP rev5 baselines svc checks SSPs and control ids against. */
export const BASELINE_LEVELS = ['low', 'moderate', 'high'] as const;
export type BaselineLevel = (typeof BASELINE_LEVELS)[number];

/** The controls (and enhancements) one FedRAMP baseline selects, lower-case OSCAL ids (`ac-2`, `ac-2.1`). */
export interface BaselineControls {
  level: BaselineLevel;
  /** Title of the FedRAMP profile it was read from. */
  title: string;
  controls: readonly string[];
}
