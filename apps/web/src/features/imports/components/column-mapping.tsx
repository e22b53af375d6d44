import { Chip, MenuItem, Select, FormControl, FormHelperText, Stack } from '@mui/material';
import { Controller, type Control } from 'react-hook-form';
import { IMPORT_COLUMNS, type ImportColumn, type ImportKind } from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { labels } from '../labels';
import type { ImportFormValues } from '../utils/import-form';

/**
 * Step 3: each column of the kind and the header of the file it is read from, as the server matched
 * them, to adjust. An optional column may be "not in the file"; a required one must have a header.
 */
export function ColumnMapping({
  kind,
  headers,
  control,
}: {
  kind: ImportKind;
  headers: readonly string[];
  control: Control<ImportFormValues>;
}) {
  const columns: DataColumn<ImportColumn>[] = [
    {
      label: labels.column,
      card: 'title',
      render: (c) => (
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <span>{c.label}</span>
          {c.optional && <Chip size="small" variant="outlined" label={labels.optional} />}
        </Stack>
      ),
      cellSx: { width: { sm: '35%' } },
    },
    {
      label: labels.fileHeader,
      // On a phone, the whole width under the column's name.
      card: 'subtitle',
      render: (c) => (
        <Controller
          name={`mapping.${c.key}`}
          control={control}
          render={({ field, fieldState }) => (
            <FormControl
              size="small"
              fullWidth
              error={!!fieldState.error}
              sx={{ maxWidth: 360, my: { xs: 0.5, sm: 0 } }}
            >
              <Select
                {...field}
                value={field.value ?? ''}
                displayEmpty
                inputProps={{ 'aria-label': labels.headerFor(c.label) }}
                renderValue={(value: string) =>
                  value || (c.optional ? labels.notInFile : <em>{labels.chooseHeader}</em>)
                }
              >
                {c.optional ? (
                  <MenuItem value="">{labels.notInFile}</MenuItem>
                ) : (
                  <MenuItem value="" disabled>
                    {labels.chooseHeader}
                  </MenuItem>
                )}
                {headers.map((header) => (
                  <MenuItem key={header} value={header}>
                    {header}
                  </MenuItem>
                ))}
              </Select>
              {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
            </FormControl>
          )}
        />
      ),
    },
  ];
  return (
    <DataTable
      label={labels.mappingTable}
      columns={columns}
      rows={IMPORT_COLUMNS[kind]}
      rowKey={(c) => c.key}
      loading={false}
      emptyText=""
      size="small"
    />
  );
}
