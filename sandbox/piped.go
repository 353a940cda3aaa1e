package sandbox

import (
	"context"
	"os"
)

// Pipes are the parent's ends of a piped Process's standard input and output
// (StartPiped): write requests to In, read answers from Out. Stderr still goes
// to the Process's output buffer (its log).
type Pipes struct {
	In  *os.File // the child's stdin
	Out *os.File // the child's stdout
}

// Close closes both ends (the child then reads end of file).
func (p Pipes) Close() {
	p.In.Close()
	p.Out.Close()
}

// StartPiped starts c under the policy as Start does (the same helper,
// namespaces, Landlock, rlimits and environment; e nil: no policy, as the
// package-level Start) but with pipes for its standard input and output
// instead of /dev/null and the output buffer: a long-lived peer spoken to
// over stdio (a language server). The caller closes the Pipes and ends the
// Process (Kill) when done.
func (e *Executor) StartPiped(ctx context.Context, c Command) (*Process, Pipes, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, Pipes{}, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, Pipes{}, err
	}
	c.stdin, c.stdout = inR, outW
	var p *Process
	if e == nil {
		p, err = Start(ctx, c)
	} else {
		p, err = e.Start(ctx, c)
	}
	// The child holds its own copies now; the parent keeps only its ends.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, Pipes{}, err
	}
	return p, Pipes{In: inW, Out: outR}, nil
}
