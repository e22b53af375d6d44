import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { messages, type ActivityItem } from '@portal/shared';
import { ActivityList } from '../../../components/activity-list';

export function RecentActivity({ items, allLink }: { items: ActivityItem[]; allLink?: string }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h6" component="h2">
            {messages.activity.title}
          </Typography>
          {allLink && items.length > 0 && (
            <Button component={RouterLink} to={allLink} size="small">
              View all
            </Button>
          )}
        </Stack>
        {items.length === 0 ? (
          <Box sx={{ py: 2 }}>
            <Typography color="text.secondary">{messages.activity.empty}</Typography>
          </Box>
        ) : (
          <ActivityList items={items} inCard />
        )}
      </CardContent>
    </Card>
  );
}
