// no property llumc checks: no task
int main(void) { return 0; }
