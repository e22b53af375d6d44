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

/**
 * Activity items, one a line: type, message and date (plus who did it). The activity page lists them
 * across the page; the dashboard's card (`inCard`) lists the latest inside its own padding.
 */
export function ActivityList({ items, inCard = false }: { items: ActivityItem[]; inCard?: boolean }) {
  return (
    <List aria-label={messages.activity.title}>
      {items.map((item) => {
        const Icon = icons[item.type];
        const color = colors[item.type];
        return (
          <ListItem key={item.id} divider disableGutters={inCard} alignItems="flex-start">
            <ListItemIcon sx={{ mt: 0.5, minWidth: 40 }}>
              <Icon color={color === 'default' ? 'action' : color} aria-hidden />
            </ListItemIcon>
            <ListItemText
              // On the page a message may quote an id or an email: it breaks anywhere rather than widen a
              // phone's page. The card has always let it run on (issue 30 kept both as they were).
              sx={inCard ? undefined : { overflowWrap: 'anywhere' }}
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
