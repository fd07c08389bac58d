// fake-checker no-overflow: garbage
int main(void) { return 0; }
