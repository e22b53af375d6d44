export const ORG_ID = '33333333-3333-4333-8333-333333333333';

export const pendingUser = {
  username: 'acme.admin',
  email: 'admin@acme.test',
  mobileNo: '9876543210',
  client: 'Acme Hiring',
  organizationId: ORG_ID,
  roleId: '44444444-4444-4444-8444-444444444444',
  isSubscription: false,
  isActive: true,
  createAsAdmin: true,
};
