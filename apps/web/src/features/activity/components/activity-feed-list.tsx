import { Chip, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import CreatedIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import UpdatedIcon from '@mui/icons-material/EditOutlined';
import DeletedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import OtherIcon from '@mui/icons-material/InfoOutlined';
import {
  activityTypeLabels,
  formatDateTime,
  messages,
  type ActivityItem,
  type ActivityType,
} from '@portal/shared';

const icons: Record<ActivityType, typeof CreatedIcon> = {
  created: CreatedIcon,
  updated: UpdatedIcon,
  deleted: DeletedIcon,
  other: OtherIcon,
};
const colors: Record<ActivityType, 'success' | 'info' | 'error' | 'default'> = {
  created: 'success',
  updated: 'info',
  deleted: 'error',
  other: 'default',
};

/** A recent-activity item: type, message and date (plus who did it). */
export function ActivityFeedList({ items }: { items: ActivityItem[] }) {
  if (items.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {messages.activity.empty}
      </Typography>
    );
  }
  return (
    <List aria-label={messages.activity.title}>
      {items.map((item) => {
        const Icon = icons[item.type];
        const color = colors[item.type];
        return (
          <ListItem key={item.id} divider alignItems="flex-start">
            <ListItemIcon sx={{ mt: 0.5, minWidth: 40 }}>
              <Icon color={color === 'default' ? 'action' : color} aria-hidden />
            </ListItemIcon>
            <ListItemText
              // A message may quote an id or an email: it breaks anywhere rather than widen a phone's page.
              sx={{ overflowWrap: 'anywhere' }}
              primary={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Chip size="small" variant="outlined" color={color} label={activityTypeLabels[item.type]} />
                  <Typography component="span">{item.message}</Typography>
                </Stack>
              }
              secondary={
                <>
                  <time dateTime={item.date}>{formatDateTime(item.date)}</time>
                  {item.actorName ? ` · ${item.actorName}` : ''}
                </>
              }
            />
          </ListItem>
        );
      })}
    </List>
  );
}
