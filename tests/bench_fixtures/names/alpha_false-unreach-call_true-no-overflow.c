// fake-checker unreach-call: false
// fake-checker no-overflow: false
int main(void) { return 0; }
