import { Typography } from '@mui/material';
import { messages, type ActivityItem } from '@portal/shared';
import { ActivityList } from '../../../components/activity-list';

/** The activity page's feed: its items, or a line saying there are none. */
export function ActivityFeedList({ items }: { items: ActivityItem[] }) {
  if (items.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {messages.activity.empty}
      </Typography>
    );
  }
  return <ActivityList items={items} />;
}
