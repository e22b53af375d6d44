import { useState } from 'react';
import {
  Alert,
  Box,
  CircularProgress,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
} from '@mui/material';
import {
  ACTIVITY_TYPES,
  activityTypeLabels,
  ADMIN_USER_PAGE_SIZES,
  messages,
  type ActivityType,
} from '@portal/shared';
import { ListPagination } from '../../../components/list-pagination';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useActivities } from '../api/get-activities';
import { ActivityFeedList } from '../components/activity-feed-list';

const ALL = 'all';

/** {prefix}/activity: the full, paginated activity feed. */
export function ActivityPage() {
  const [type, setType] = useState<ActivityType | typeof ALL>(ALL);
  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const feed = useActivities({
    page: page + 1,
    pageSize,
    type: type === ALL ? undefined : type,
    search: search || undefined,
  });

  return (
    <Box>
      <PageHeader title={messages.activity.title} />
      <Paper variant="outlined">
        <ListToolbar>
          <FormControl size="small" sx={{ minWidth: 180 }}>
            <InputLabel id="activity-type-label">Type</InputLabel>
            <Select
              labelId="activity-type-label"
              label="Type"
              value={type}
              onChange={(event) => {
                setType(event.target.value as ActivityType | typeof ALL);
                setPage(0);
              }}
            >
              <MenuItem value={ALL}>All types</MenuItem>
              {ACTIVITY_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {activityTypeLabels[t]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <SearchField
            value={searchInput}
            onChange={setSearchInput}
            placeholder="Search activities..."
            label="Search activities"
          />
        </ListToolbar>
        {feed.isError && (
          <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
            {extractErrorMessage(feed.error, messages.activity.loadFailed)}
          </Alert>
        )}
        {feed.isPending ? (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <CircularProgress size={24} aria-label={messages.common.loading} />
          </Box>
        ) : (
          <ActivityFeedList items={feed.data?.items ?? []} />
        )}
        <ListPagination
          count={feed.data?.meta.total ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          pageSizes={ADMIN_USER_PAGE_SIZES}
          onPageSizeChange={setPageSize}
        />
      </Paper>
    </Box>
  );
}
