//! Native code for the word engine's operations, compiled with cranelift.
//!
//! In: a word program's operations, literals and chunk masks
//! ([`super::words`]), the size of its bit array in words, and the ranges
//! of operations the engine runs as one piece (a unit, the whole view, a
//! level of `after`), each with the word moves run before it (clearing a
//! phase's bits, copying the next state's bits into the state's: a
//! [`Piece`]). Out: [`NativeCode`], one function per piece of at most
//! [`OPS_PER_FUNCTION`] operations, and per requested range a [`Calls`]
//! naming the functions that run it; per role a [`Scatter`] function that
//! sets its legal moves' bits in move order, one function that finds the
//! `k`th set bit of such words ([`NativeCode::select`]), and per
//! [`CopyOut`] a function that reads a state's words out; or `Err` with
//! the reason (no cranelift backend for the host, a failed compilation, a
//! program over [`MAX_WORK`]), and the engine interprets.
//!
//! Each function takes the bit array's address and does exactly what
//! `WordProgram::run` does for its range, operation by operation: a gate
//! skips the operation when its bit (XOR its invert) is clear; each chunk
//! ANDs the chunk's mask with the windows of its literals (XOR their
//! invert) and ORs the result into the head window, or, reducing, sets the
//! one head bit when a chunk holds and stops. Every word index, shift and
//! mask is an immediate: a window at shift 0 reads one word, a chunk whose
//! mask is empty is left out, and a word the function read or wrote
//! shortly before is not read again (its value is kept, `Array`). Holds:
//! the same bits as the interpreter (`tests/jit.rs` runs both side by
//! side); every word the code reads or writes is checked at compile time
//! to lie inside the array, and [`NativeCode::run`] checks the array's
//! length, so the code touches no other memory.
#![allow(unsafe_code)]

use super::words::{Lit, Op, Transfer};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, MemFlagsData, Signature, UserFuncName, Value, types,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module, default_libcall_names};
use rustc_hash::FxHashMap;

/// The most operations one function holds: a range with more is split
/// into several functions run one after the other, which keeps each
/// compilation (register allocation grows faster than the code) short.
pub const OPS_PER_FUNCTION: usize = 256;

/// The largest program compiled, in [`Op::cost`] units summed over the
/// requested ranges (about one emitted load and AND each), plus a unit per
/// word move, scatter word and copied transfer: above it the
/// engine interprets, so compiling never takes long. The largest shipped
/// game's program has about 124,000 and compiles in about 0.7 s of CPU.
pub const MAX_WORK: u64 = 1 << 18;

/// A compiled function: runs its operations on the bit array at the
/// address given.
type WordFunction = unsafe extern "C" fn(*mut u64);

/// A compiled scatter: writes the move-order words at the second address,
/// with the bit of each legal move the bit array at the first address
/// holds set; returns how many.
type ScatterFunction = unsafe extern "C" fn(*const u64, *mut u64) -> u64;

/// A compiled select: the place of set bit number `k` (from 0) among the
/// words at the address given, read in order, of which there are the
/// second argument; `u64::MAX` when fewer bits are set.
type SelectFunction = unsafe extern "C" fn(*const u64, u64, u64) -> u64;

/// A role's legal moves, put into move order by a native function: bit
/// `b` of the array set (in `words`, a word and the mask of the role's
/// `legal` bits in it) is move `move_at[b - first]`, whose bit the
/// function sets in the move-order words; the moves of `always` are legal
/// in every state. A word with a gate holds no legal move while the gate
/// (a literal's bit) is false: the function then skips it.
#[derive(Clone, Copy, Debug)]
pub struct Scatter<'s> {
    pub words: &'s [(u32, u64)],
    /// Per word, its gate, if any.
    pub gates: &'s [Option<Lit>],
    pub first: u32,
    pub move_at: &'s [u32],
    pub always: &'s [u32],
    /// The move-order words the moves' bits lie in.
    pub order_words: usize,
}

/// A compiled copy out: the words at the second address from the bit
/// array at the first ([`CopyOut`]).
type CopyFunction = unsafe extern "C" fn(*const u64, *mut u64);

/// Words read out of the bit array: word `t.word` of the output is the OR,
/// over the transfers `t` into it, of the bits `t.mask` of the array's 64
/// bits from bit `64 * t.word + t.shift` on (`copy_out` in words.rs).
#[derive(Clone, Copy, Debug)]
pub struct CopyOut<'c> {
    pub transfers: &'c [Transfer],
    pub out_words: usize,
}

/// A word move done before a range's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordMove {
    /// `bits[word] &= !mask`.
    Clear { word: u32, mask: u64 },
    /// A copy of bits of the array further on, ORed in (a transfer whose
    /// source is the array itself).
    Copy(Transfer),
}

/// One range of operations to compile, with the word moves its first
/// function does before them, and optionally more word moves and a second
/// range run after them in the same function (a piece with a second range
/// is one function: at most [`OPS_PER_FUNCTION`] operations in all).
#[derive(Clone, Copy, Debug)]
pub struct Piece<'p> {
    pub ops: (u32, u32),
    pub before: &'p [WordMove],
    pub then: Option<(&'p [WordMove], (u32, u32))>,
}

/// The functions `functions[start..end]` of a [`NativeCode`], which run
/// one requested range of operations.
#[derive(Clone, Copy, Debug, Default)]
pub struct Calls(u32, u32);

/// The JIT module that owns the compiled code's memory, freed on drop.
struct OwnedModule(Option<JITModule>);

// SAFETY: the module is never used after its functions are finalized
// (`compile` returns it only then): it is kept only to free its memory on
// drop, which needs ownership, so sharing or moving it across threads
// exposes none of its interior state. The code it holds is read-only.
unsafe impl Send for OwnedModule {}
// SAFETY: as above: no method of the module is called through `&self`.
unsafe impl Sync for OwnedModule {}

impl Drop for OwnedModule {
    fn drop(&mut self) {
        if let Some(module) = self.0.take() {
            // SAFETY: the module is dropped with the `NativeCode` holding
            // its only function pointers, so none is running or called
            // after this.
            unsafe { module.free_memory() };
        }
    }
}

/// A word program's operations compiled to native functions.
pub struct NativeCode {
    functions: Vec<WordFunction>,
    /// Per [`Scatter`] compiled, its function and its move-order words.
    scatters: Vec<(ScatterFunction, usize)>,
    /// Per [`CopyOut`] compiled, its function and its output's words.
    copies: Vec<(CopyFunction, usize)>,
    /// The [`NativeCode::select`] function.
    select: SelectFunction,
    /// The bit array's length the code was compiled for (every address it
    /// touches is below it).
    words: usize,
    /// The scatters' tables of moves, read by their code.
    _tables: Vec<Box<[u32]>>,
    /// Declared after `functions`, so the code is freed last.
    _module: OwnedModule,
}

impl std::fmt::Debug for NativeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NativeCode({} functions)", self.functions.len())
    }
}

impl NativeCode {
    /// Runs the functions `calls` on `bits`, the bit array of a machine of
    /// the program compiled.
    #[inline]
    pub fn run(&self, bits: &mut [u64], calls: Calls) {
        assert!(bits.len() >= self.words, "a bit array of the wrong size");
        for &function in &self.functions[calls.0 as usize..calls.1 as usize] {
            // SAFETY: the function reads and writes only words below
            // `self.words` of the array at the address given (checked when
            // it was compiled), and `bits` holds that many; its code lives
            // as long as `self`.
            unsafe { function(bits.as_mut_ptr()) };
        }
    }

    /// Runs scatter `k` ([`NativeCode::compile`]'s order) on `bits`, the
    /// bit array of a machine of the program compiled: sets the bit of
    /// each legal move in `order` (every word of the role's written);
    /// returns how many.
    #[inline]
    pub fn scatter(&self, k: usize, bits: &[u64], order: &mut [u64]) -> usize {
        let (function, order_words) = self.scatters[k];
        assert!(bits.len() >= self.words, "a bit array of the wrong size");
        assert!(order.len() >= order_words, "move-order words too few");
        // SAFETY: the function reads only words below `self.words` of
        // `bits` and its table, and writes only words below `order_words`
        // of `order` (every table entry its masks reach was checked when
        // it was compiled); its code and table live as long as `self`.
        unsafe { function(bits.as_ptr(), order.as_mut_ptr()) as usize }
    }

    /// The place of set bit number `k` (from 0) in `words`, read in order,
    /// if that many are set: a count of each word's bits (the host's
    /// POPCNT where it has one) finds the word, and a binary search over
    /// its halves, with no branch, the bit.
    #[inline]
    pub fn select(&self, words: &[u64], k: usize) -> Option<u32> {
        // SAFETY: the function reads only the `words.len()` words at the
        // address given; its code lives as long as `self`.
        let at = unsafe { (self.select)(words.as_ptr(), words.len() as u64, k as u64) };
        u32::try_from(at).ok()
    }

    /// Runs copy `k` ([`NativeCode::compile`]'s order) from `bits`, the bit
    /// array of a machine of the program compiled, into `out` (every word
    /// written).
    #[inline]
    pub fn copy_out(&self, k: usize, bits: &[u64], out: &mut [u64]) {
        let (function, out_words) = self.copies[k];
        assert!(bits.len() >= self.words, "a bit array of the wrong size");
        assert!(out.len() == out_words, "an output of the wrong size");
        // SAFETY: the function reads only words below `self.words` of
        // `bits` and writes only the `out_words` words of `out` (checked
        // when it was compiled); its code lives as long as `self`.
        unsafe { function(bits.as_ptr(), out.as_mut_ptr()) }
    }

    /// Compiles the operations of each of `pieces` (of `ops`) for a bit
    /// array of `words` words, the `scatters` and the `copies`; returns
    /// the code and each piece's calls, in order. A piece without word
    /// moves equal to consecutive pieces before it reuses their functions
    /// (a whole phase after its units).
    pub fn compile(
        words: usize,
        ops: &[Op],
        lits: &[Lit],
        masks: &[u64],
        pieces: &[Piece],
        scatters: &[Scatter],
        copies: &[CopyOut],
    ) -> Result<(NativeCode, Vec<Calls>), String> {
        if words > i32::MAX as usize / 8 {
            return Err("the bit array is too large to address".into());
        }
        let program = Program {
            words,
            ops,
            lits,
            masks,
        };
        let mut compiled: FxHashMap<u32, (u32, Calls)> = FxHashMap::default();
        let mut fresh: Vec<Piece> = Vec::new();
        let mut calls = Vec::with_capacity(pieces.len());
        let mut next_function = 0u32;
        let mut work = 0u64;
        for piece in pieces {
            let (start, end) = piece.ops;
            if let Some((moves, (second_start, second_end))) = piece.then {
                if (end - start + second_end - second_start) as usize > OPS_PER_FUNCTION {
                    return Err("a piece of two ranges is too long for one function".into());
                }
                program.check_moves(piece.before)?;
                program.check_moves(moves)?;
                program.check(start, end)?;
                program.check(second_start, second_end)?;
                work += (piece.before.len() + moves.len()) as u64
                    + program.cost(start, end)
                    + program.cost(second_start, second_end);
                fresh.push(*piece);
                calls.push(Calls(next_function, next_function + 1));
                next_function += 1;
                continue;
            }
            if piece.before.is_empty()
                && let Some(reused) = reuse(&compiled, start, end)
            {
                calls.push(reused);
                continue;
            }
            program.check_moves(piece.before)?;
            let first = next_function;
            let mut before = piece.before;
            let mut function_start = start;
            loop {
                let function_end = end.min(function_start + OPS_PER_FUNCTION as u32);
                program.check(function_start, function_end)?;
                fresh.push(Piece {
                    ops: (function_start, function_end),
                    before: std::mem::take(&mut before),
                    then: None,
                });
                next_function += 1;
                function_start = function_end;
                if function_start >= end {
                    break;
                }
            }
            work += piece.before.len() as u64 + program.cost(start, end);
            let piece_calls = Calls(first, next_function);
            if piece.before.is_empty() {
                compiled.insert(start, (end, piece_calls));
            }
            calls.push(piece_calls);
        }
        for scatter in scatters {
            program.check_scatter(scatter)?;
            work += (scatter.words.len() + scatter.always.len()) as u64;
        }
        for copy in copies {
            program.check_copy(copy)?;
            work += copy.transfers.len() as u64;
        }
        // Checked once all is summed: the checks above compile nothing.
        if work > MAX_WORK {
            return Err(format!("the program is over {MAX_WORK} units of work"));
        }
        let code = (program.emit(&fresh, scatters, copies)).map_err(|e| e.to_string())?;
        Ok((code, calls))
    }
}

/// The functions of consecutive ranges compiled before that make up
/// `start..end` exactly, if any (an empty range needs none).
fn reuse(compiled: &FxHashMap<u32, (u32, Calls)>, start: u32, end: u32) -> Option<Calls> {
    if start == end {
        return Some(Calls::default());
    }
    let (mut at, mut out) = (start, None::<Calls>);
    while at < end {
        let &(piece_end, calls) = compiled.get(&at)?;
        out = match out {
            None => Some(calls),
            Some(so_far) if so_far.1 == calls.0 => Some(Calls(so_far.0, calls.1)),
            Some(_) => return None,
        };
        at = piece_end;
    }
    out.filter(|_| at == end)
}

/// The operations being compiled.
struct Program<'p> {
    words: usize,
    ops: &'p [Op],
    lits: &'p [Lit],
    masks: &'p [u64],
}

impl Program<'_> {
    /// Checks that every word `ops[start..end]` read or write is inside the
    /// bit array.
    fn check(&self, start: u32, end: u32) -> Result<(), String> {
        let inside = |word: u64| word < self.words as u64;
        for op in &self.ops[start as usize..end as usize] {
            let (gates, windows) = self.literals(op);
            let chunks = u64::from(op.chunks);
            let window_inside = |word: u32, shift: u32| {
                chunks == 0 || inside(u64::from(word) + chunks - 1 + u64::from(shift != 0))
            };
            let shifts_fit =
                (gates.iter().chain(windows)).all(|l| l.shift < 64) && op.head_shift < 64;
            let fits = shifts_fit
                && gates.iter().all(|g| inside(u64::from(g.word)))
                && windows.iter().all(|l| window_inside(l.word, l.shift))
                && match op.reduce {
                    true => inside(u64::from(op.head_word)),
                    false => window_inside(op.head_word, op.head_shift),
                }
                && (op.mask as usize + op.chunks as usize) <= self.masks.len();
            if !fits {
                return Err("an operation reaches outside the bit array".into());
            }
        }
        Ok(())
    }

    /// Checks that every word `moves` read or write is inside the bit
    /// array.
    fn check_moves(&self, moves: &[WordMove]) -> Result<(), String> {
        let inside = |word: i64| (0..self.words as i64).contains(&word);
        let fits = moves.iter().all(|&m| match m {
            WordMove::Clear { word, .. } => inside(word.into()),
            WordMove::Copy(Transfer { word, shift, .. }) => {
                let at = 64 * i64::from(word) + shift;
                inside(word.into())
                    && at >= 0
                    && inside(at / 64)
                    && inside(at / 64 + i64::from(at % 64 != 0))
            }
        });
        match fits {
            true => Ok(()),
            false => Err("a word move reaches outside the bit array".into()),
        }
    }

    /// Checks that every word `scatter` reads is inside the bit array, and
    /// every move its masks reach is in its table and its move-order words.
    fn check_scatter(&self, scatter: &Scatter) -> Result<(), String> {
        let in_order = |m: u32| (m as usize) < 64 * scatter.order_words;
        let fits = scatter.order_words <= i32::MAX as usize / 8
            && scatter.gates.len() == scatter.words.len()
            && (scatter.gates.iter().flatten())
                .all(|g| (g.word as usize) < self.words && g.shift < 64)
            && scatter.always.iter().all(|&m| in_order(m))
            && scatter.words.iter().all(|&(word, mask)| {
                (word as usize) < self.words
                    && (0..64).filter(|b| mask >> b & 1 == 1).all(|b| {
                        let at = (64 * u64::from(word) + b).checked_sub(scatter.first.into());
                        at.and_then(|at| scatter.move_at.get(at as usize))
                            .is_some_and(|&m| in_order(m))
                    })
            });
        match fits {
            true => Ok(()),
            false => Err("a legal move's bit lies outside its table".into()),
        }
    }

    /// Checks that every window `copy` reads is inside the bit array and
    /// every word it writes inside its output.
    fn check_copy(&self, copy: &CopyOut) -> Result<(), String> {
        let inside = |word: i64| (0..self.words as i64).contains(&word);
        let fits = copy.transfers.iter().all(|t| {
            let at = 64 * i64::from(t.word) + t.shift;
            (t.word as usize) < copy.out_words
                && at >= 0
                && inside(at / 64)
                && (at % 64 == 0 || inside(at / 64 + 1))
        });
        match fits && copy.out_words <= i32::MAX as usize / 8 {
            true => Ok(()),
            false => Err("a copy out reaches outside its words".into()),
        }
    }

    /// The work of the operations `ops[start..end]` ([`Op::cost`]).
    fn cost(&self, start: u32, end: u32) -> u64 {
        (self.ops[start as usize..end as usize].iter())
            .map(|op| u64::from(op.cost()))
            .sum()
    }

    fn literals(&self, op: &Op) -> (&[Lit], &[Lit]) {
        self.lits[op.start as usize..op.end as usize].split_at(op.gates as usize)
    }

    /// Compiles one function per piece, in order, one per scatter and one
    /// per copy out.
    fn emit(
        &self,
        pieces: &[Piece],
        scatters: &[Scatter],
        copies: &[CopyOut],
    ) -> Result<NativeCode, Box<dyn std::error::Error>> {
        let mut flags = settings::builder();
        // The code is checked by construction and by `tests/jit.rs`; the
        // verifier would double the compile time.
        flags.set("enable_verifier", "false")?;
        // The operations are already what to run: cranelift's optimizer
        // made a board game's playouts 0.6% faster and compiled 1.5x longer.
        flags.set("opt_level", "none")?;
        let isa = cranelift_native::builder()?.finish(settings::Flags::new(flags))?;
        let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let pointer = module.target_config().pointer_type();
        let mut signature = module.make_signature();
        signature.params.push(AbiParam::new(pointer));
        let mut copy_signature = signature.clone();
        copy_signature.params.push(AbiParam::new(pointer));
        let mut scatter_signature = copy_signature.clone();
        scatter_signature.returns.push(AbiParam::new(types::I64));
        let mut select_signature = signature.clone();
        select_signature.params.push(AbiParam::new(types::I64));
        select_signature.params.push(AbiParam::new(types::I64));
        select_signature.returns.push(AbiParam::new(types::I64));
        let mut context = module.make_context();
        let mut builder_context = FunctionBuilderContext::new();
        let mut define = |name: String,
                          signature: &Signature,
                          body: &mut dyn FnMut(&mut FunctionBuilder, &[Value])|
         -> Result<FuncId, Box<dyn std::error::Error>> {
            let id = module.declare_function(&name, Linkage::Local, signature)?;
            context.func.signature = signature.clone();
            context.func.name = UserFuncName::user(0, id.as_u32());
            let mut b = FunctionBuilder::new(&mut context.func, &mut builder_context);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let params = b.block_params(entry).to_vec();
            body(&mut b, &params);
            b.seal_all_blocks();
            b.finalize(module.target_config());
            module.define_function(id, &mut context)?;
            module.clear_context(&mut context);
            Ok(id)
        };
        let mut ids = Vec::with_capacity(pieces.len());
        for (n, piece) in pieces.iter().enumerate() {
            ids.push(define(format!("ops{n}"), &signature, &mut |b, params| {
                let mut array = Array::new(params[0]);
                let ranges = std::iter::once((piece.before, piece.ops)).chain(piece.then);
                for (moves, (start, end)) in ranges {
                    for &word_move in moves {
                        array.emit_move(b, word_move);
                    }
                    for op in &self.ops[start as usize..end as usize] {
                        self.emit_op(b, &mut array, op);
                    }
                }
                b.ins().return_(&[]);
            })?);
        }
        let tables: Vec<Box<[u32]>> = scatters.iter().map(|s| s.move_at.into()).collect();
        let mut scatter_ids = Vec::with_capacity(scatters.len());
        for (n, (scatter, table)) in scatters.iter().zip(&tables).enumerate() {
            scatter_ids.push(define(
                format!("scatter{n}"),
                &scatter_signature,
                &mut |b, params| {
                    let table = b.ins().iconst(pointer, table.as_ptr() as i64);
                    let count = emit_scatter(b, params[0], params[1], table, scatter);
                    b.ins().return_(&[count]);
                },
            )?);
        }
        let select_id = define("select".into(), &select_signature, &mut |b, params| {
            emit_select(b, params[0], params[1], params[2]);
        })?;
        let mut copy_ids = Vec::with_capacity(copies.len());
        for (n, copy) in copies.iter().enumerate() {
            copy_ids.push(define(
                format!("copy{n}"),
                &copy_signature,
                &mut |b, params| {
                    emit_copy_out(b, params[0], params[1], copy);
                    b.ins().return_(&[]);
                },
            )?);
        }
        module.finalize_definitions()?;
        let functions = (ids.into_iter())
            .map(|id| {
                let address = module.get_finalized_function(id);
                // SAFETY: `address` is the entry of a function just
                // compiled with the signature `fn(*mut u64)` in the
                // platform's calling convention.
                unsafe { std::mem::transmute::<*const u8, WordFunction>(address) }
            })
            .collect();
        let scatters = (scatter_ids.into_iter().zip(scatters))
            .map(|(id, scatter)| {
                let address = module.get_finalized_function(id);
                // SAFETY: `address` is the entry of a function just
                // compiled with the signature `fn(*const u64, *mut u64) ->
                // u64` in the platform's calling convention.
                let function =
                    unsafe { std::mem::transmute::<*const u8, ScatterFunction>(address) };
                (function, scatter.order_words)
            })
            .collect();
        let copies = (copy_ids.into_iter().zip(copies))
            .map(|(id, copy)| {
                let address = module.get_finalized_function(id);
                // SAFETY: `address` is the entry of a function just
                // compiled with the signature `fn(*const u64, *mut u64)` in
                // the platform's calling convention.
                let function = unsafe { std::mem::transmute::<*const u8, CopyFunction>(address) };
                (function, copy.out_words)
            })
            .collect();
        let address = module.get_finalized_function(select_id);
        // SAFETY: `address` is the entry of a function just compiled with
        // the signature `fn(*const u64, u64, u64) -> u64` in the platform's
        // calling convention.
        let select = unsafe { std::mem::transmute::<*const u8, SelectFunction>(address) };
        Ok(NativeCode {
            functions,
            scatters,
            copies,
            select,
            words: self.words,
            _tables: tables,
            _module: OwnedModule(Some(module)),
        })
    }

    /// Emits one operation (see `WordProgram::run`).
    fn emit_op(&self, b: &mut FunctionBuilder, array: &mut Array, op: &Op) {
        let (gates, windows) = self.literals(op);
        // Past a branch, what the blocks it skips learned of the array is
        // not known where they join again (`done`).
        let branches = !gates.is_empty() || (op.reduce && op.chunks > 1);
        let before = branches.then(|| array.mark());
        let done = b.create_block();
        for g in gates {
            let word = array.load(b, g.word);
            let bit = b.ins().band_imm_u(word, (1u64 << g.shift) as i64);
            let go_on = b.create_block();
            match g.invert & 1 {
                0 => b.ins().brif(bit, go_on, &[], done, &[]),
                _ => b.ins().brif(bit, done, &[], go_on, &[]),
            };
            b.switch_to_block(go_on);
        }
        let masks = &self.masks[op.mask as usize..(op.mask + op.chunks) as usize];
        for (c, &mask) in masks.iter().enumerate() {
            // One chunk: the interpreter takes its mask from the operation.
            let mask = match op.chunks {
                1 => op.first_mask,
                _ => mask,
            };
            if mask == 0 {
                continue;
            }
            let c = c as u32;
            let mut value = (mask != !0).then(|| b.ins().iconst(types::I64, mask as i64));
            for l in windows {
                let window = array.window(b, l.word + c, l.shift);
                value = Some(match (value, l.invert) {
                    (None, 0) => window,
                    (None, invert) => b.ins().bxor_imm_u(window, invert as i64),
                    (Some(v), 0) => b.ins().band(v, window),
                    (Some(v), u64::MAX) => b.ins().band_not(v, window),
                    (Some(v), invert) => {
                        let window = b.ins().bxor_imm_u(window, invert as i64);
                        b.ins().band(v, window)
                    }
                });
            }
            let value = value.unwrap_or_else(|| b.ins().iconst(types::I64, -1));
            match (op.reduce, op.chunks) {
                (false, _) => array.or_window(b, op.head_word + c, op.head_shift, value),
                (true, 1) => {
                    let holds = b.ins().icmp_imm_u(IntCC::NotEqual, value, 0);
                    let holds = b.ins().uextend(types::I64, holds);
                    let bit = b.ins().ishl_imm_u(holds, i64::from(op.head_shift));
                    array.or_word(b, op.head_word, bit);
                }
                (true, _) => {
                    let (set, go_on) = (b.create_block(), b.create_block());
                    b.ins().brif(value, set, &[], go_on, &[]);
                    b.switch_to_block(set);
                    let bit = b.ins().iconst(types::I64, (1u64 << op.head_shift) as i64);
                    let skipped = array.mark();
                    array.or_word(b, op.head_word, bit);
                    b.ins().jump(done, &[]);
                    array.forget_past(skipped);
                    b.switch_to_block(go_on);
                }
            }
        }
        b.ins().jump(done, &[]);
        b.switch_to_block(done);
        if let Some(before) = before {
            array.forget_past(before);
        }
    }
}

/// Emits a scatter's body (`RoleLegal::set_moves` in words.rs): the
/// move-order words at `order` written with the always legal moves' bits,
/// then for each set bit of each word read, the move at its place in
/// `table`, whose bit is set there; returns the count.
fn emit_scatter(
    b: &mut FunctionBuilder,
    bits: Value,
    order: Value,
    table: Value,
    scatter: &Scatter,
) -> Value {
    let mut count = b.ins().iconst(types::I64, scatter.always.len() as i64);
    // Every move-order word written: the always legal moves' bits, or none.
    for w in 0..scatter.order_words {
        let always = (scatter.always.iter())
            .filter(|&&m| (m / 64) as usize == w)
            .fold(0u64, |bits, &m| bits | 1 << (m % 64));
        let always = b.ins().iconst(types::I64, always as i64);
        b.ins().store(ACCESS, always, order, 8 * w as i32);
    }
    let mut words = (scatter.words.iter().zip(scatter.gates)).peekable();
    while let Some((&(word, mask), &gate)) = words.next() {
        // The first word of a run with one gate tests it: off, the run
        // is skipped.
        let skip = gate.map(|gate| {
            let (run, skip) = (b.create_block(), b.create_block());
            let skip_count = b.append_block_param(skip, types::I64);
            let gate_word = load(b, bits, gate.word);
            let on = b.ins().band_imm_u(gate_word, (1u64 << gate.shift) as i64);
            match gate.invert & 1 {
                0 => b.ins().brif(on, run, &[], skip, &[BlockArg::Value(count)]),
                _ => b.ins().brif(on, skip, &[BlockArg::Value(count)], run, &[]),
            };
            b.switch_to_block(run);
            (skip, skip_count, gate)
        });
        count = emit_scatter_word(b, bits, order, table, scatter, (word, mask), count);
        if let Some((skip, skip_count, gate)) = skip {
            while let Some((&word, _)) = words.next_if(|&(_, &g)| g == Some(gate)) {
                count = emit_scatter_word(b, bits, order, table, scatter, word, count);
            }
            b.ins().jump(skip, &[BlockArg::Value(count)]);
            b.switch_to_block(skip);
            count = skip_count;
        }
    }
    count
}

/// Emits the part of a scatter's body for one word of `legal` bits;
/// returns the count after it.
fn emit_scatter_word(
    b: &mut FunctionBuilder,
    bits: Value,
    order: Value,
    table: Value,
    scatter: &Scatter,
    (word, mask): (u32, u64),
    count: Value,
) -> Value {
    let value = load(b, bits, word);
    let legal = b.ins().band_imm_u(value, mask as i64);
    let (each, done) = (b.create_block(), b.create_block());
    let set = b.append_block_param(each, types::I64);
    let n = b.append_block_param(each, types::I64);
    let done_count = b.append_block_param(done, types::I64);
    next_bit_or_done(b, legal, count, each, done);
    b.switch_to_block(each);
    let low = b.ins().ctz(set);
    let at = b
        .ins()
        .iadd_imm_s(low, 64 * i64::from(word) - i64::from(scatter.first));
    let offset = b.ins().ishl_imm_u(at, 2);
    let address = b.ins().iadd(table, offset);
    let m = b.ins().uload32(ACCESS, address, 0);
    let word_offset = b.ins().ushr_imm_u(m, 6);
    let word_offset = b.ins().ishl_imm_u(word_offset, 3);
    let target = b.ins().iadd(order, word_offset);
    let one = b.ins().iconst(types::I64, 1);
    let bit = b.ins().ishl(one, m);
    let old = b.ins().load(types::I64, ACCESS, target, 0);
    let new = b.ins().bor(old, bit);
    b.ins().store(ACCESS, new, target, 0);
    let next_n = b.ins().iadd_imm_s(n, 1);
    let less_one = b.ins().iadd_imm_s(set, -1);
    let rest = b.ins().band(set, less_one);
    next_bit_or_done(b, rest, next_n, each, done);
    b.switch_to_block(done);
    done_count
}

/// Branches to `each` with the bits `set` and the `count` while a bit is
/// left, else to `done` with the count.
fn next_bit_or_done(b: &mut FunctionBuilder, set: Value, count: Value, each: Block, done: Block) {
    let (bits, count_arg) = (BlockArg::Value(set), BlockArg::Value(count));
    b.ins()
        .brif(set, each, &[bits, count_arg], done, &[count_arg]);
}

/// Emits the select's body ([`NativeCode::select`]) over the `count` words
/// at `words`: a loop over the words that takes each one's bits from `k`
/// until `k` falls inside one, then six halvings of that word, each
/// keeping the low half or, past its bits, the high one.
fn emit_select(b: &mut FunctionBuilder, words: Value, count: Value, k: Value) {
    let (head, body, found, none) = (
        b.create_block(),
        b.create_block(),
        b.create_block(),
        b.create_block(),
    );
    let zero = b.ins().iconst(types::I64, 0);
    b.ins()
        .jump(head, &[BlockArg::Value(zero), BlockArg::Value(k)]);

    b.switch_to_block(head);
    let (i, k) = (
        b.append_block_param(head, types::I64),
        b.append_block_param(head, types::I64),
    );
    let more = b.ins().icmp(IntCC::UnsignedLessThan, i, count);
    b.ins().brif(more, body, &[], none, &[]);

    // `head` is the body's only way in: its `i` and `k` hold there.
    b.switch_to_block(body);
    let offset = b.ins().ishl_imm_u(i, 3);
    let address = b.ins().iadd(words, offset);
    let word = b.ins().load(types::I64, ACCESS, address, 0);
    let bits = b.ins().popcnt(word);
    let inside = b.ins().icmp(IntCC::UnsignedLessThan, k, bits);
    let next_i = b.ins().iadd_imm_s(i, 1);
    let rest = b.ins().isub(k, bits);
    let to_found = [word, k, i].map(BlockArg::Value);
    let to_head = [next_i, rest].map(BlockArg::Value);
    b.ins().brif(inside, found, &to_found, head, &to_head);

    b.switch_to_block(found);
    let (mut word, mut k, i) = (
        b.append_block_param(found, types::I64),
        b.append_block_param(found, types::I64),
        b.append_block_param(found, types::I64),
    );
    let mut at = b.ins().ishl_imm_u(i, 6);
    for half in [32, 16, 8, 4, 2, 1] {
        let low = b.ins().band_imm_u(word, ((1u64 << half) - 1) as i64);
        let low_bits = b.ins().popcnt(low);
        let past = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, k, low_bits);
        let k_past = b.ins().isub(k, low_bits);
        let word_past = b.ins().ushr_imm_u(word, half);
        let at_past = b.ins().iadd_imm_s(at, half);
        k = b.ins().select(past, k_past, k);
        word = b.ins().select(past, word_past, word);
        at = b.ins().select(past, at_past, at);
    }
    b.ins().return_(&[at]);

    b.switch_to_block(none);
    let none_value = b.ins().iconst(types::I64, -1);
    b.ins().return_(&[none_value]);
}

/// Emits a copy out's body: each output word the OR of its transfers'
/// windows, masked, kept in a register and stored once.
fn emit_copy_out(b: &mut FunctionBuilder, bits: Value, out: Value, copy: &CopyOut) {
    let zero = b.ins().iconst(types::I64, 0);
    let mut words = vec![zero; copy.out_words];
    let mut array = Array::new(bits);
    for t in copy.transfers {
        let at = 64 * i64::from(t.word) + t.shift;
        let window = array.window(b, (at / 64) as u32, (at % 64) as u32);
        let value = b.ins().band_imm_u(window, t.mask as i64);
        let word = &mut words[t.word as usize];
        *word = b.ins().bor(*word, value);
    }
    for (w, value) in words.into_iter().enumerate() {
        b.ins().store(ACCESS, value, out, 8 * w as i32);
    }
}

/// The memory accesses of the code: inside the array (checked before
/// compiling) and aligned.
const ACCESS: MemFlagsData = MemFlagsData::trusted();

/// The most words an [`Array`] keeps the values of (the most recently
/// used): a value kept longer than the registers hold is spilled to the
/// stack and back, dearer than reading the array again.
const KNOWN_WORDS: usize = 8;

/// Word `word` of the array at `address`, read from memory.
fn load(b: &mut FunctionBuilder, address: Value, word: u32) -> Value {
    b.ins().load(types::I64, ACCESS, address, 8 * word as i32)
}

/// The bit array as the function being emitted knows it: the words last
/// read or written (at most [`KNOWN_WORDS`]), each with its value where
/// that value is defined in a block every later one passes through, so a
/// known word is not read from memory again (writes are stored at once).
/// Nothing else writes the array while one function runs.
struct Array {
    address: Value,
    known: Vec<(u32, Value)>,
    /// Every word written, in order ([`Array::forget_past`]).
    written: Vec<u32>,
}

/// What an [`Array`] knew at a point, and how many writes it had seen.
struct Mark {
    known: Vec<(u32, Value)>,
    writes: usize,
}

impl Array {
    fn new(address: Value) -> Array {
        Array {
            address,
            known: Vec::new(),
            written: Vec::new(),
        }
    }

    /// Word `word`.
    fn load(&mut self, b: &mut FunctionBuilder, word: u32) -> Value {
        let value = match self.known.iter().position(|&(w, _)| w == word) {
            Some(at) => self.known.remove(at).1,
            None => load(b, self.address, word),
        };
        self.remember(word, value);
        value
    }

    /// Notes `value` as word `word`'s, the most recent.
    fn remember(&mut self, word: u32, value: Value) {
        self.known.retain(|&(w, _)| w != word);
        if self.known.len() == KNOWN_WORDS {
            self.known.remove(0);
        }
        self.known.push((word, value));
    }

    fn store(&mut self, b: &mut FunctionBuilder, word: u32, value: Value) {
        b.ins().store(ACCESS, value, self.address, 8 * word as i32);
        self.remember(word, value);
        self.written.push(word);
    }

    /// What is known now, to go back to where a branch joins again.
    fn mark(&self) -> Mark {
        Mark {
            known: self.known.clone(),
            writes: self.written.len(),
        }
    }

    /// Back to what was known at `mark`, less the words written since:
    /// where the blocks since the mark join a path that skipped them.
    fn forget_past(&mut self, mark: Mark) {
        let Mark { mut known, writes } = mark;
        known.retain(|(w, _)| !self.written[writes..].contains(w));
        self.known = known;
    }

    /// The 64 bits from bit `64 * word + shift` on (`window` in words.rs).
    fn window(&mut self, b: &mut FunctionBuilder, word: u32, shift: u32) -> Value {
        let low = self.load(b, word);
        if shift == 0 {
            return low;
        }
        let high = self.load(b, word + 1);
        let low = b.ins().ushr_imm_u(low, i64::from(shift));
        let high = b.ins().ishl_imm_u(high, i64::from(64 - shift));
        b.ins().bor(low, high)
    }

    /// Word `word` |= `value`.
    fn or_word(&mut self, b: &mut FunctionBuilder, word: u32, value: Value) {
        let old = self.load(b, word);
        let new = b.ins().bor(old, value);
        self.store(b, word, new);
    }

    /// Sets the bits of `value` from bit `64 * word + shift` on
    /// (`or_window` in words.rs).
    fn or_window(&mut self, b: &mut FunctionBuilder, word: u32, shift: u32, value: Value) {
        let low = b.ins().ishl_imm_u(value, i64::from(shift));
        self.or_word(b, word, low);
        if shift != 0 {
            let high = b.ins().ushr_imm_u(value, i64::from(64 - shift));
            self.or_word(b, word + 1, high);
        }
    }

    /// Emits one word move (the interpreter's loops over a phase's clear
    /// masks and over the state's transfers in words.rs).
    fn emit_move(&mut self, b: &mut FunctionBuilder, word_move: WordMove) {
        match word_move {
            WordMove::Clear { word, mask } => {
                let old = self.load(b, word);
                let new = b.ins().band_imm_u(old, !mask as i64);
                self.store(b, word, new);
            }
            WordMove::Copy(Transfer { word, shift, mask }) => {
                let value = self.load(b, word);
                let value = b.ins().band_imm_u(value, mask as i64);
                let at = 64 * i64::from(word) + shift;
                self.or_window(b, (at / 64) as u32, (at % 64) as u32, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NativeCode;

    #[test]
    fn select_finds_each_set_bit_in_order() {
        let (code, _) =
            NativeCode::compile(1, &[], &[], &[], &[], &[], &[]).expect("a host backend");
        let words = [0, 0b1011_0001, u64::MAX, 0, 1 << 63, 0x8000_0001_0000_0002];
        let places: Vec<u32> = (0u32..64 * words.len() as u32)
            .filter(|&b| words[(b / 64) as usize] >> (b % 64) & 1 == 1)
            .collect();
        for (k, &place) in places.iter().enumerate() {
            assert_eq!(code.select(&words, k), Some(place), "bit number {k}");
        }
        assert_eq!(code.select(&words, places.len()), None);
        assert_eq!(code.select(&words[..1], 0), None);
        assert_eq!(code.select(&[], 0), None);
    }
}
