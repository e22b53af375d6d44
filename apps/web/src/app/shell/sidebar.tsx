import {
  Divider,
  Drawer,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Toolbar,
} from '@mui/material';
import DashboardIcon from '@mui/icons-material/SpaceDashboardOutlined';
import SwapIcon from '@mui/icons-material/SwapHoriz';
import LaunchIcon from '@mui/icons-material/Launch';
import ChatIcon from '@mui/icons-material/SmartToyOutlined';
import SupportIcon from '@mui/icons-material/SupportAgentOutlined';
import ChevronIcon from '@mui/icons-material/ChevronRight';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { INTERVIEW_BOT_PRODUCT_NAME, messages } from '@portal/shared';
import { usePortalConfig } from '../../lib/portal-config';
import { routePrefixOf } from '../../lib/use-route-prefix';
import { usePermissions } from '../../lib/session/use-permission';
import { featureNavItems } from './nav-items';

export const SIDEBAR_WIDTH = 248;

/** Product Dashboard toggle, Go to Product, chatbot link, Dashboard (not on /logindashboard), Support. */
export function Sidebar({ mobileOpen, onClose }: { mobileOpen: boolean; onClose: () => void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const prefix = routePrefixOf(pathname);
  const { mayOpen } = usePermissions();
  const { data: config } = usePortalConfig();

  const toggleProductDashboard = () => {
    const rest = pathname.replace(/^\/(login)?dashboard/, '');
    navigate(`${prefix === '/dashboard' ? '/logindashboard' : '/dashboard'}${rest}`);
    onClose();
  };

  const items = featureNavItems.filter((item) => mayOpen(item.path));

  const content = (
    <nav aria-label="Main">
      <Toolbar />
      <List>
        <ListItem disablePadding>
          <ListItemButton
            onClick={toggleProductDashboard}
            selected={prefix === '/logindashboard'}
            aria-pressed={prefix === '/logindashboard'}
          >
            <ListItemIcon>
              <SwapIcon />
            </ListItemIcon>
            <ListItemText primary={messages.shell.productDashboard} />
          </ListItemButton>
        </ListItem>
        <ListItem disablePadding>
          <ListItemButton
            component="a"
            href={config?.productUrl ?? '#'}
            target="_blank"
            rel="noopener noreferrer"
          >
            <ListItemIcon>
              <LaunchIcon />
            </ListItemIcon>
            <ListItemText primary={messages.shell.goToProduct} />
          </ListItemButton>
        </ListItem>
        <ListItem disablePadding>
          <ListItemButton
            component="a"
            href={config?.chatbotUrl ?? '#'}
            target="_blank"
            rel="noopener noreferrer"
          >
            <ListItemIcon>
              <ChatIcon />
            </ListItemIcon>
            <ListItemText primary={INTERVIEW_BOT_PRODUCT_NAME} />
          </ListItemButton>
        </ListItem>
        {prefix === '/dashboard' && (
          <ListItem disablePadding>
            <ListItemButton component={NavLink} to="/dashboard" end onClick={onClose}>
              <ListItemIcon>
                <DashboardIcon />
              </ListItemIcon>
              <ListItemText primary={messages.shell.dashboard} />
            </ListItemButton>
          </ListItem>
        )}
        <ListItem disablePadding>
          <ListItemButton component={NavLink} to={`${prefix}/support`} onClick={onClose}>
            <ListItemIcon>
              <SupportIcon />
            </ListItemIcon>
            <ListItemText primary={messages.shell.support} />
          </ListItemButton>
        </ListItem>
      </List>
      {items.length > 0 && <Divider />}
      <List>
        {items.map((item) => (
          <ListItem disablePadding key={item.path}>
            <ListItemButton component={NavLink} to={`${prefix}/${item.path}`} onClick={onClose}>
              <ListItemIcon>
                <ChevronIcon />
              </ListItemIcon>
              <ListItemText primary={item.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </nav>
  );

  const paper = { width: SIDEBAR_WIDTH, boxSizing: 'border-box' as const };
  return (
    <>
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onClose}
        sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': paper }}
      >
        {content}
      </Drawer>
      <Drawer
        variant="permanent"
        open
        sx={{
          display: { xs: 'none', md: 'block' },
          width: SIDEBAR_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': paper,
        }}
      >
        {content}
      </Drawer>
    </>
  );
}
