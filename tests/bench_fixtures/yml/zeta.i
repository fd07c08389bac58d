// fake-checker unreach-call: true
int main(void) { return 0; }
