import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import {
  IMPORT_MATCH_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_ON_EXISTING,
  messages,
  type ImportColumns,
  type ImportKind,
  type OrganizationSummary,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePermissions } from '../../../lib/session/use-permission';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useDryRunImport } from '../api/dry-run-import';
import { useReadColumns } from '../api/read-columns';
import { labels } from '../labels';
import {
  columnLabel,
  defaultImportValues,
  importFormSchema,
  mappingFrom,
  mappingToSend,
  type ImportFormValues,
} from '../utils/import-form';
import { INTO_ORGANIZATION } from '../utils/import-kind';
import { ColumnMapping } from './column-mapping';
import { FilePicker } from './file-picker';
import { ImportReport } from './import-report';
import { OrganizationPicker } from './organization-picker';
import { StepSection } from './step-section';
import { TemplateSection } from './template-section';

/**
 * A new import, in order: the template, the file, its columns matched, the options and the dry run
 * ("Check file"), then the dry run's report with the commit, which leads to the import's own page
 * (its progress, and the address to come back to). Changing anything after a dry run sets its report
 * aside: what is committed is what was last checked.
 */
export function NewImport({ kind }: { kind: ImportKind }) {
  const { holder } = usePermissions();
  const navigate = useNavigate();
  const prefix = useRoutePrefix();
  const needsOrganization = holder.isSuperAdmin && INTO_ORGANIZATION[kind];
  const schema = useMemo(() => importFormSchema(kind, needsOrganization), [kind, needsOrganization]);
  const { control, handleSubmit, reset, getValues, setValue } = useForm<ImportFormValues>({
    resolver: zodResolver(schema),
    defaultValues: defaultImportValues(kind),
  });
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [columns, setColumns] = useState<ImportColumns | null>(null);
  const [organization, setOrganization] = useState<OrganizationSummary | null>(null);
  /** The last dry run of this file, and the choices it was made with. */
  const [checked, setChecked] = useState<{ id: string; choices: string } | null>(null);
  const readColumns = useReadColumns();
  const dryRun = useDryRunImport();
  // A choice changed since the dry run: its report no longer says what would be imported.
  const choices = JSON.stringify(useWatch({ control }));
  const checkedId = checked?.choices === choices ? checked.id : null;

  const headers = useMemo(() => [...new Set((columns?.headers ?? []).filter((h) => h !== ''))], [columns]);

  const choose = async (chosen: File) => {
    setFile(chosen);
    setColumns(null);
    setChecked(null);
    setFileError(undefined);
    // The server decides; a file over the cap is not worth sending.
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFileError(messages.imports.fileTooLarge);
      return;
    }
    try {
      const answer = await readColumns.mutateAsync({ kind, file: chosen });
      reset({ ...getValues(), mapping: mappingFrom(kind, answer) });
      setColumns(answer);
    } catch (error) {
      setFileError(extractErrorMessage(error, labels.columnsFailed));
    }
  };

  const check = handleSubmit(async (values) => {
    if (!file) return;
    const sent = JSON.stringify(getValues());
    try {
      const detail = await dryRun.mutateAsync({
        kind,
        file,
        mapping: mappingToSend(values.mapping),
        onExisting: values.onExisting,
        matchBy: values.matchBy,
        organizationId: needsOrganization ? values.organizationId : undefined,
      });
      setChecked({ id: detail.id, choices: sent });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.checkFailed), { variant: 'error' });
    }
  });

  const matchColumns: readonly string[] = IMPORT_MATCH_COLUMNS[kind];
  return (
    <Stack spacing={2}>
      <StepSection step={1} title={labels.templateStep}>
        <TemplateSection kind={kind} />
      </StepSection>

      <StepSection step={2} title={labels.fileStep}>
        <FilePicker
          file={file}
          onChoose={(f) => void choose(f)}
          disabled={readColumns.isPending || dryRun.isPending}
          error={fileError}
        />
        {readColumns.isPending && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 2 }} role="status">
            <CircularProgress size={20} aria-hidden />
            <Typography variant="body2">{labels.readingFile}</Typography>
          </Stack>
        )}
      </StepSection>

      {columns && (
        <Box component="form" noValidate onSubmit={check}>
          <Stack spacing={2}>
            <StepSection step={3} title={labels.mappingStep}>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {labels.mappingHint}
              </Typography>
              <ColumnMapping kind={kind} headers={headers} control={control} />
            </StepSection>

            <StepSection step={4} title={labels.optionsStep}>
              <Stack spacing={3}>
                {needsOrganization && (
                  <Controller
                    name="organizationId"
                    control={control}
                    render={({ fieldState }) => (
                      <OrganizationPicker
                        value={organization}
                        error={fieldState.error?.message}
                        onChange={(org) => {
                          setOrganization(org);
                          setValue('organizationId', org?.id ?? '', { shouldValidate: fieldState.invalid });
                        }}
                      />
                    )}
                  />
                )}
                <Controller
                  name="matchBy"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      select
                      label={labels.matchBy}
                      helperText={labels.matchByHint}
                      disabled={matchColumns.length < 2}
                      sx={{ maxWidth: 480 }}
                    >
                      {matchColumns.map((key) => (
                        <MenuItem key={key} value={key}>
                          {columnLabel(kind, key)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
                <Controller
                  name="onExisting"
                  control={control}
                  render={({ field }) => (
                    <FormControl>
                      <FormLabel id={`${kind}-on-existing`}>{labels.existingRecords}</FormLabel>
                      <RadioGroup {...field} aria-labelledby={`${kind}-on-existing`}>
                        {IMPORT_ON_EXISTING.map((choice) => (
                          <FormControlLabel
                            key={choice}
                            value={choice}
                            control={<Radio />}
                            label={labels.onExisting[choice]}
                          />
                        ))}
                      </RadioGroup>
                    </FormControl>
                  )}
                />
                <Box>
                  <Button type="submit" variant="contained" size="large" disabled={dryRun.isPending}>
                    {dryRun.isPending ? labels.checking : labels.checkFile}
                  </Button>
                </Box>
              </Stack>
            </StepSection>
          </Stack>
        </Box>
      )}

      {checkedId && (
        <StepSection step={5} title={labels.resultStep}>
          <ImportReport
            kind={kind}
            id={checkedId}
            onCommitted={() => navigate(`${prefix}/imports/${kind}/${encodeURIComponent(checkedId)}`)}
          />
        </StepSection>
      )}
    </Stack>
  );
}
