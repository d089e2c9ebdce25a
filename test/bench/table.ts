/** A benchmark result printed as one table by `npm run bench`. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  notes?: string[];
}
