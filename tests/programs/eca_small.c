// A small event-condition-action system in the style of RERS: the state lives in globals that
// only ever hold a few constants (a in {0, 1, 2}, b in {8, 9, 10}, c in {3, 4, 5}); `out` mixes
// in a nondet value and must stay unnarrowed. The error needs inputs 1, 2, 3 in this order.
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

int a = 1;
int b = 8;
int c = 3;
int out = 0;

int step(int input) {
    if (a == 2 && b == 10 && c == 4 && ERROR_CONDITION) {
        __VERIFIER_error();
    }
    if (a == 1 && input == 1 && b == 8) {
        a = 0; b = 9; return 20;
    } else if (a == 0 && input == 2 && (c == 3 || c == 4)) {
        c = 5; b = 10; return 21;
    } else if (b == 10 && c == 5 && input == 3) {
        a = 2; c = 4; return 22;
    } else if (a == 2 && input == 1) {
        a = 1; b = 8; c = 3; return out;
    }
    out = input;
    return -1;
}

int main() {
    while (1) {
        int input = __VERIFIER_nondet_int();
        if (input < 1 || input > 3) return 0;
        step(input);
    }
}
