import { useEffect, useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { messages, type OrganizationSummary } from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useOrganizations } from '../../../lib/organizations/get-organizations';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/use-paged-search';
import { labels } from '../labels';

/** The super administrator's choice of the organization imported into, searched on the server. */
export function OrganizationPicker({
  value,
  onChange,
  error,
}: {
  value: OrganizationSummary | null;
  onChange: (organization: OrganizationSummary | null) => void;
  error?: string;
}) {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const organizations = useOrganizations(search || undefined);
  const loadError = organizations.isError
    ? extractErrorMessage(organizations.error, messages.common.anErrorOccurred)
    : undefined;
  return (
    <Autocomplete
      options={organizations.data ?? []}
      value={value}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(options) => options}
      loading={organizations.isFetching}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      onChange={(_event, organization) => onChange(organization)}
      sx={{ maxWidth: 480 }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={labels.organization}
          required
          error={!!error || !!loadError}
          helperText={error ?? loadError ?? labels.organizationHint}
        />
      )}
    />
  );
}
