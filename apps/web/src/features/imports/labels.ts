import {
  formatCount,
  IMPORT_MAX_ROWS,
  messages,
  type ImportKind,
  type ImportOnExisting,
  type ImportStatus,
} from '@portal/shared';

/** What each kind's records are called, plural and in a sentence. */
const NOUNS: Record<ImportKind, string> = {
  users: 'users',
  positions: 'positions',
  organizations: 'organizations',
};

/** The title of the list each kind's records are seen in. */
const RECORDS_TITLE: Record<ImportKind, string> = {
  users: messages.users.title,
  positions: messages.positions.title,
  organizations: messages.users.title,
};

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/**
 * Texts used only by the import screens (texts docs/product.md names, and the server's messages, are
 * in packages/shared messages.ts).
 */
export const labels = {
  title: (kind: ImportKind) => `Import ${NOUNS[kind]}`,
  subtitle: (kind: ImportKind) =>
    `Add or update ${NOUNS[kind]} from a spreadsheet: nothing is saved until you have checked the file and chosen to import.`,
  newImport: 'New import',
  history: 'Import history',
  backToHistory: 'Back to import history',

  templateStep: 'Download the template',
  templateHint: (kind: ImportKind) =>
    `One row per ${NOUNS[kind].replace(/s$/, '')}, under a header row. Every column is required unless marked optional.`,
  templateXlsx: 'Template (.xlsx)',
  templateCsv: 'Template (.csv)',
  templateFailed: 'The template could not be downloaded.',
  columnsTable: 'Template columns',
  column: 'Column',
  rule: 'Rule',
  example: 'Example',
  optional: 'Optional',

  fileStep: 'Choose your file',
  chooseFile: 'Choose file',
  chooseAnotherFile: 'Choose another file',
  fileInput: 'Spreadsheet file',
  fileHint: (maxBytes: number) =>
    `.xlsx or .csv (UTF-8, comma or semicolon), up to ${Math.round(maxBytes / (1024 * 1024))} MB and ${formatCount(IMPORT_MAX_ROWS)} rows.`,
  readingFile: 'Reading the file’s columns…',
  columnsFailed: 'The file could not be read.',

  mappingStep: 'Match the columns',
  mappingHint: 'Each column of the import, and the header of your file it is read from.',
  mappingTable: 'Column mapping',
  fileHeader: 'Header in your file',
  headerFor: (label: string) => `Header for ${label}`,
  notInFile: 'Not in the file',
  chooseHeader: 'Choose a header',

  optionsStep: 'Check the file',
  matchBy: 'Match existing records by',
  matchByHint:
    'A row whose value here is already a record’s is that record: importing again creates nothing twice.',
  existingRecords: 'Existing records',
  onExisting: {
    skip: 'Leave them unchanged',
    update: 'Update them from the file',
  } satisfies Record<ImportOnExisting, string>,
  organization: 'Organization',
  organizationHint: 'The organization the records are imported into.',
  checkFile: 'Check file',
  checking: 'Checking…',
  checkFailed: 'The file could not be checked.',

  resultStep: 'Review and import',
  summary: 'Summary',
  toCreate: (n: number) => `${formatCount(n)} to create`,
  toUpdate: (n: number) => `${formatCount(n)} to update`,
  unchanged: (n: number) => `${formatCount(n)} unchanged`,
  withErrors: (n: number) => plural(n, 'row with errors', 'rows with errors'),
  rowsChecked: (n: number) => `${plural(n, 'row', 'rows')} checked.`,
  noErrors: 'No errors: every row can be imported.',
  errorsTable: 'Errors',
  row: 'Row',
  message: 'Message',
  errorsTruncated: (shown: number) =>
    `The first ${formatCount(shown)} errors are shown; the file of rows with errors has all of them.`,
  errorsLeftOut:
    'Rows with errors are left out of the import. Fix them in the file of rows with errors and upload it again.',
  downloadErrors: 'Download rows with errors',
  downloadErrorsFailed: 'The rows with errors could not be downloaded.',
  importRecords: (n: number) => `Import ${plural(n, 'record', 'records')}`,
  nothingToImport: 'Nothing to import: no row would create or update a record.',
  commitFailed: 'The import could not be started.',

  progress: 'Import progress',
  queued: 'Waiting to start…',
  progressText: (done: number, total: number) =>
    `${formatCount(done)} of ${formatCount(total)} rows imported`,
  leaveHint: 'You can leave this page: you will be notified when the import ends.',
  results: 'Results',
  created: (n: number) => `${formatCount(n)} created`,
  updated: (n: number) => `${formatCount(n)} updated`,
  failed: (n: number) => plural(n, 'row failed', 'rows failed'),
  finishedAt: (when: string) => `Finished ${when}`,
  recordsList: (kind: ImportKind) => `Go to ${RECORDS_TITLE[kind]}`,
  backToRecords: (kind: ImportKind) => `Back to ${RECORDS_TITLE[kind]}`,

  file: 'File',
  status: 'Status',
  started: 'Started',
  rows: 'Rows',
  outcome: 'Outcome',
  open: 'Open',
  openImport: (fileName: string) => `Open ${fileName}`,
  noImports: 'No imports yet.',
  historyFailed: 'The import history could not be loaded.',
  loadFailed: 'The import could not be loaded.',
  settings: (matchBy: string, onExisting: ImportOnExisting) =>
    `Matched by ${matchBy}; existing records ${onExisting === 'update' ? 'updated' : 'left unchanged'}.`,
  statuses: {
    dry_run: 'Checked',
    queued: 'Queued',
    running: 'Importing',
    done: 'Done',
    failed: 'Failed',
  } satisfies Record<ImportStatus, string>,
} as const;
