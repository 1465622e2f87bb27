// The table format (CSV, LaTeX, number format) lives in main/api/table.ts so that the CLI's
// reproduction tables (main/reproduce) and the views export the same text; re-exported here for the views.
export * from '../../../main/api/table';
