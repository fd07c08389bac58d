// fake-checker unreach-call: false
// fake-checker no-overflow: false
// fake-checker-padding: 6000000
int main(void) { return 0; }
