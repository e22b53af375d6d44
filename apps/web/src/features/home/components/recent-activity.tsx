import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import CreatedIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import UpdatedIcon from '@mui/icons-material/EditOutlined';
import DeletedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import OtherIcon from '@mui/icons-material/InfoOutlined';
import { Link as RouterLink } from 'react-router';
import {
  activityTypeLabels,
  formatDateTime,
  messages,
  type ActivityItem,
  type ActivityType,
} from '@portal/shared';

// Same item layout as the full feed (features/activity); features do not share components.
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
          <List aria-label={messages.activity.title}>
            {items.map((item) => {
              const Icon = icons[item.type];
              const color = colors[item.type];
              return (
                <ListItem key={item.id} divider disableGutters alignItems="flex-start">
                  <ListItemIcon sx={{ mt: 0.5, minWidth: 40 }}>
                    <Icon color={color === 'default' ? 'action' : color} aria-hidden />
                  </ListItemIcon>
                  <ListItemText
                    primary={
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        <Chip
                          size="small"
                          variant="outlined"
                          color={color}
                          label={activityTypeLabels[item.type]}
                        />
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
        )}
      </CardContent>
    </Card>
  );
}
