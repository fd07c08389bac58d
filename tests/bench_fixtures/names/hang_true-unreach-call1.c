// fake-checker unreach-call: hang
int main(void) { return 0; }
