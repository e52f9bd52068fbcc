// Paged KV pool bookkeeping: allocation and cells, several sequences, prefix reuse (hits,
// misses, context keys, the last prompt token), reference counts and copy-on-write, LRU
// eviction, out-of-blocks and too-large errors, occupancy statistics and history.
// Covers: prefix_key.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "engine/kv/kv_pool.h"
#include "engine/kv/prefix_key.h"

namespace octo {
namespace {

// n token ids start, start+1, …
std::vector<int32_t> tokens(int32_t n, int32_t start = 100) {
    std::vector<int32_t> t(static_cast<size_t>(n));
    std::iota(t.begin(), t.end(), start);
    return t;
}

KvPool make_pool(int32_t block_size, int32_t n_blocks, int32_t history = 4096) {
    Result<KvPool> pool = KvPool::create(KvPoolConfig{block_size, n_blocks, history});
    EXPECT_TRUE(pool.ok());
    return std::move(pool).value();
}

std::vector<KvBlockId> table(const KvPool& pool, KvSeqId seq) {
    const std::span<const KvBlockId> t = pool.block_table(seq);
    return {t.begin(), t.end()};
}

const uint64_t kCtx = kv_context_key(KvContext{"model-1", 0, "", 0});

// Begins a sequence, evaluates the whole prompt (append + commit) and returns its id.
KvSeqId run_prompt(KvPool& pool, const std::vector<int32_t>& prompt, uint64_t ctx = kCtx) {
    const KvBegin b = pool.begin(prompt, ctx);
    const std::vector<int32_t> rest(prompt.begin() + b.reused_tokens, prompt.end());
    EXPECT_TRUE(pool.append(b.seq, rest).ok());
    EXPECT_TRUE(pool.commit(b.seq).ok());
    return b.seq;
}

TEST(KvPoolCreate, RejectsBadConfigs) {
    EXPECT_EQ(KvPool::create(KvPoolConfig{0, 4, 16}).error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(KvPool::create(KvPoolConfig{16, 0, 16}).error().message,
              "KV pool: block size (16) and block count (0) must be at least 1");
    EXPECT_EQ(KvPool::create(KvPoolConfig{1 << 16, 1 << 15, 16}).error().message,
              "KV pool: 32768 blocks of 65536 tokens exceed 2^31 cells");
    EXPECT_FALSE(KvPool::create(KvPoolConfig{16, 4, -1}).ok());
    const KvPool pool = make_pool(16, 5);
    const KvPoolStats st = pool.stats();
    EXPECT_EQ(st.block_size, 16);
    EXPECT_EQ(st.blocks_total, 5);
    EXPECT_EQ(st.blocks_free, 5);
    EXPECT_EQ(st.blocks_used, 0);
}

TEST(KvPoolAlloc, SequencesGetBlocksAndCells) {
    KvPool pool = make_pool(4, 8);
    const KvSeqId a = pool.begin({}, kCtx).seq;
    const KvSeqId b = pool.begin({}, kCtx).seq;
    EXPECT_NE(a, b);
    Result<KvAppend> a1 = pool.append(a, tokens(2));
    ASSERT_TRUE(a1.ok());
    EXPECT_EQ(a1->first_position, 0);
    EXPECT_TRUE(a1->copies.empty());
    ASSERT_TRUE(pool.append(b, tokens(5)).ok());
    Result<KvAppend> a2 = pool.append(a, tokens(3));
    ASSERT_TRUE(a2.ok());
    EXPECT_EQ(a2->first_position, 2);
    EXPECT_EQ(table(pool, a), (std::vector<KvBlockId>{0, 3}));
    EXPECT_EQ(table(pool, b), (std::vector<KvBlockId>{1, 2}));
    EXPECT_EQ(pool.cell(a, 1), 1);
    EXPECT_EQ(pool.cell(a, 4), 12);
    EXPECT_EQ(pool.cell(b, 3), 7);
    EXPECT_EQ(pool.cell(b, 4), 8);
    EXPECT_EQ(pool.cell(b, 5), -1);
    EXPECT_EQ(pool.cell(99, 0), -1);
    EXPECT_EQ(pool.stats().blocks_used, 4);
    EXPECT_EQ(pool.stats().blocks_free, 4);

    // Uncommitted blocks become free again, not cached.
    ASSERT_TRUE(pool.release(a).ok());
    EXPECT_EQ(pool.stats().blocks_used, 2);
    EXPECT_EQ(pool.stats().blocks_free, 6);
    EXPECT_EQ(pool.stats().blocks_cached, 0);
    EXPECT_TRUE(pool.block_table(a).empty());
    EXPECT_EQ(pool.release(a).error().message, "KV pool: no sequence 0");
}

TEST(KvPoolPrefix, ReusesTheLongestMatchingBlockAlignedPrefix) {
    KvPool pool = make_pool(4, 16);
    const std::vector<int32_t> prompt = tokens(10);
    ASSERT_TRUE(pool.release(run_prompt(pool, prompt)).ok());
    // Blocks [0,4) and [4,8) were full and stay cached; the partial third block is free.
    EXPECT_EQ(pool.stats().blocks_cached, 2);
    EXPECT_EQ(pool.stats().blocks_free, 14);

    EXPECT_EQ(pool.begin(prompt, kCtx).reused_tokens, 8);
    std::vector<int32_t> second_block_differs = prompt;
    second_block_differs[6] = 7;
    EXPECT_EQ(pool.begin(second_block_differs, kCtx).reused_tokens, 4);
    std::vector<int32_t> first_differs = prompt;
    first_differs[0] = 7;
    EXPECT_EQ(pool.begin(first_differs, kCtx).reused_tokens, 0);
    // A longer prompt with the same start reuses the same two blocks.
    std::vector<int32_t> longer = tokens(30);
    EXPECT_EQ(pool.begin(longer, kCtx).reused_tokens, 8);
    EXPECT_EQ(pool.begin({}, kCtx).reused_tokens, 0);
}

TEST(KvPoolPrefix, LastPromptTokenIsAlwaysRecomputed) {
    KvPool pool = make_pool(4, 16);
    const std::vector<int32_t> prompt = tokens(8); // exactly two full blocks
    ASSERT_TRUE(pool.release(run_prompt(pool, prompt)).ok());
    EXPECT_EQ(pool.stats().blocks_cached, 2);
    const KvBegin same = pool.begin(prompt, kCtx);
    EXPECT_EQ(same.reused_tokens, 4); // (8 - 1) / 4 = 1 block
    EXPECT_EQ(pool.stats().sequences[0].tokens, 4);
    EXPECT_EQ(pool.begin(tokens(9), kCtx).reused_tokens, 8);
    EXPECT_EQ(pool.begin(tokens(4), kCtx).reused_tokens, 0);
    EXPECT_EQ(pool.begin(tokens(5), kCtx).reused_tokens, 4);
}

TEST(KvPoolPrefix, ContextKeyCoversModelAndAblation) {
    const uint64_t plain = kv_context_key(KvContext{"model-1", 0, "zero", 0});
    EXPECT_EQ(plain, kCtx);
    // Ablating nothing: mode and digest do not matter.
    EXPECT_EQ(kv_context_key(KvContext{"model-1", 0, "mean", 42}), plain);
    EXPECT_NE(kv_context_key(KvContext{"model-2", 0, "zero", 0}), plain);
    const uint64_t c_zero = kv_context_key(KvContext{"model-1", 0b100, "zero", 7});
    EXPECT_NE(c_zero, plain);
    EXPECT_NE(kv_context_key(KvContext{"model-1", 0b100, "mean", 7}), c_zero);
    EXPECT_NE(kv_context_key(KvContext{"model-1", 0b1000, "zero", 7}), c_zero);
    EXPECT_NE(kv_context_key(KvContext{"model-1", 0b100, "zero", 8}), c_zero);
    EXPECT_NE(kv_digest("abc"), kv_digest("abd"));
    // Reference and exact precision compute different K/V.
    KvContext reference{"model-1", 0, "zero", 0};
    reference.precision = "reference";
    KvContext exact = reference;
    exact.precision = "exact";
    EXPECT_NE(kv_context_key(reference), kv_context_key(exact));
    EXPECT_NE(kv_context_key(reference), plain);
}

TEST(KvPoolPrefix, DifferentContextNeverReuses) {
    KvPool pool = make_pool(4, 16);
    const std::vector<int32_t> prompt = tokens(13);
    ASSERT_TRUE(pool.release(run_prompt(pool, prompt)).ok());
    EXPECT_EQ(pool.begin(prompt, kCtx).reused_tokens, 12);
    EXPECT_EQ(pool.begin(prompt, kv_context_key(KvContext{"model-2", 0, "", 0})).reused_tokens, 0);
    const uint64_t ablated = kv_context_key(KvContext{"model-1", 0b100, "zero", 0});
    EXPECT_EQ(pool.begin(prompt, ablated).reused_tokens, 0);
    // Blocks computed under the ablation are reused only under the same ablation.
    ASSERT_TRUE(pool.release(run_prompt(pool, prompt, ablated)).ok());
    EXPECT_EQ(pool.begin(prompt, ablated).reused_tokens, 12);
    EXPECT_EQ(pool.begin(prompt, kv_context_key(KvContext{"model-1", 0b100, "mean", 0})).reused_tokens, 0);
    EXPECT_EQ(pool.begin(prompt, kv_context_key(KvContext{"model-1", 0, "mean", 0})).reused_tokens, 12);
}

TEST(KvPoolShare, ReusedBlocksAreReferenceCounted) {
    KvPool pool = make_pool(4, 16);
    const std::vector<int32_t> prompt = tokens(10);
    const KvSeqId a = run_prompt(pool, prompt); // still running
    const KvBegin b = pool.begin(prompt, kCtx);
    ASSERT_EQ(b.reused_tokens, 8);
    EXPECT_EQ(table(pool, b.seq), (std::vector<KvBlockId>{0, 1}));
    ASSERT_TRUE(pool.append(b.seq, {prompt.begin() + 8, prompt.end()}).ok());
    EXPECT_EQ(table(pool, b.seq), (std::vector<KvBlockId>{0, 1, 3}));
    KvPoolStats st = pool.stats();
    EXPECT_EQ(st.blocks_used, 4);
    EXPECT_EQ(st.blocks_shared, 2);
    ASSERT_EQ(st.sequences.size(), 2u);
    EXPECT_EQ(st.sequences[0].seq, a);
    EXPECT_EQ(st.sequences[0].shared_blocks, 2);
    EXPECT_EQ(st.sequences[0].reused_tokens, 0);
    EXPECT_EQ(st.sequences[1].tokens, 10);
    EXPECT_EQ(st.sequences[1].blocks, 3);
    EXPECT_EQ(st.sequences[1].reused_tokens, 8);

    // The shared blocks stay in use while b holds them; a's private block is freed.
    ASSERT_TRUE(pool.release(a).ok());
    st = pool.stats();
    EXPECT_EQ(st.blocks_used, 3);
    EXPECT_EQ(st.blocks_shared, 0);
    EXPECT_EQ(st.blocks_cached, 0);
    EXPECT_EQ(st.blocks_free, 13);
    ASSERT_TRUE(pool.release(b.seq).ok());
    EXPECT_EQ(pool.stats().blocks_cached, 2);
}

TEST(KvPoolShare, ForkCopiesThePartialBlockOnWrite) {
    KvPool pool = make_pool(4, 8);
    const KvSeqId a = pool.begin({}, kCtx).seq;
    ASSERT_TRUE(pool.append(a, tokens(6)).ok()); // blocks 0 (full) and 1 (2 cells)
    Result<KvSeqId> b = pool.fork(a);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(table(pool, *b), (std::vector<KvBlockId>{0, 1}));
    EXPECT_EQ(pool.stats().blocks_shared, 2);

    Result<KvAppend> wb = pool.append(*b, tokens(1, 7));
    ASSERT_TRUE(wb.ok());
    ASSERT_EQ(wb->copies.size(), 1u);
    EXPECT_EQ(wb->copies[0].from, 1);
    EXPECT_EQ(wb->copies[0].to, 2);
    EXPECT_EQ(wb->copies[0].n_cells, 2);
    EXPECT_EQ(wb->first_position, 6);
    EXPECT_EQ(table(pool, *b), (std::vector<KvBlockId>{0, 2}));
    EXPECT_EQ(table(pool, a), (std::vector<KvBlockId>{0, 1}));
    EXPECT_EQ(pool.stats().blocks_shared, 1);

    // Block 1 is now a's alone: written in place.
    Result<KvAppend> wa = pool.append(a, tokens(1, 9));
    ASSERT_TRUE(wa.ok());
    EXPECT_TRUE(wa->copies.empty());
    EXPECT_EQ(table(pool, a), (std::vector<KvBlockId>{0, 1}));
    EXPECT_EQ(pool.stats().block_copies, 1);
    EXPECT_EQ(pool.fork(42).error().code, ErrorCode::InvalidArgument);
}

TEST(KvPoolShare, WritingIntoASharedReusedBlockCopiesIt) {
    KvPool pool = make_pool(4, 16);
    const std::vector<int32_t> prompt = tokens(9);
    const KvSeqId a = run_prompt(pool, prompt);
    const KvBegin b = pool.begin(prompt, kCtx);
    ASSERT_EQ(b.reused_tokens, 8);
    // b rewinds into the shared second block and writes there.
    ASSERT_TRUE(pool.truncate(b.seq, 6).ok());
    Result<KvAppend> w = pool.append(b.seq, std::vector<int32_t>{1, 2, 3});
    ASSERT_TRUE(w.ok());
    ASSERT_EQ(w->copies.size(), 1u);
    EXPECT_EQ(w->copies[0].from, 1);
    EXPECT_EQ(w->copies[0].n_cells, 2);
    EXPECT_EQ(table(pool, b.seq)[1], w->copies[0].to);
    EXPECT_EQ(table(pool, a), (std::vector<KvBlockId>{0, 1, 2}));
    // The cached block is intact: a third run still reuses both blocks.
    EXPECT_EQ(pool.begin(prompt, kCtx).reused_tokens, 8);
}

TEST(KvPoolShare, SoleOwnerWritingIntoItsPublishedBlockWithdrawsIt) {
    KvPool pool = make_pool(4, 16);
    const std::vector<int32_t> prompt = tokens(9);
    const KvSeqId a = run_prompt(pool, prompt);
    ASSERT_TRUE(pool.truncate(a, 6).ok());
    Result<KvAppend> w = pool.append(a, std::vector<int32_t>{1, 2, 3});
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w->copies.empty());
    EXPECT_EQ(table(pool, a), (std::vector<KvBlockId>{0, 1, 2}));
    EXPECT_EQ(pool.begin(prompt, kCtx).reused_tokens, 4);
    // After commit the rewritten block is cached under its new tokens.
    ASSERT_TRUE(pool.commit(a).ok());
    const std::vector<int32_t> edited = {100, 101, 102, 103, 104, 105, 1, 2, 3};
    EXPECT_EQ(pool.begin(edited, kCtx).reused_tokens, 8);
    EXPECT_EQ(pool.truncate(a, 10).error().message, "KV pool: cannot truncate sequence 0 of 9 tokens to 10");
}

TEST(KvPoolEvict, IdlePrefixesAreEvictedLeastRecentlyReleasedFirst) {
    KvPool pool = make_pool(4, 6);
    const std::vector<int32_t> first = tokens(9, 100);
    const std::vector<int32_t> second = tokens(9, 200);
    ASSERT_TRUE(pool.release(run_prompt(pool, first)).ok());
    ASSERT_TRUE(pool.release(run_prompt(pool, second)).ok());
    EXPECT_EQ(pool.stats().blocks_cached, 4);
    EXPECT_EQ(pool.stats().blocks_free, 2);

    // Needs 3 blocks: the 2 free ones, then first's deeper block is evicted.
    const KvSeqId c = pool.begin({}, kCtx).seq;
    ASSERT_TRUE(pool.append(c, tokens(12, 300)).ok());
    EXPECT_EQ(pool.stats().evictions, 1);
    EXPECT_EQ(pool.begin(first, kCtx).reused_tokens, 4);
    EXPECT_EQ(pool.begin(second, kCtx).reused_tokens, 8);
}

TEST(KvPoolEvict, ReuseRefreshesRecency) {
    KvPool pool = make_pool(4, 6);
    const std::vector<int32_t> first = tokens(9, 100);
    const std::vector<int32_t> second = tokens(9, 200);
    ASSERT_TRUE(pool.release(run_prompt(pool, first)).ok());
    ASSERT_TRUE(pool.release(run_prompt(pool, second)).ok());
    // Reusing `first` makes `second` the least recently used prefix.
    const KvBegin again = pool.begin(first, kCtx);
    ASSERT_EQ(again.reused_tokens, 8);
    ASSERT_TRUE(pool.release(again.seq).ok());

    const KvSeqId c = pool.begin({}, kCtx).seq;
    ASSERT_TRUE(pool.append(c, tokens(16, 300)).ok()); // 2 free + 2 evicted
    EXPECT_EQ(pool.stats().evictions, 2);
    EXPECT_EQ(pool.begin(first, kCtx).reused_tokens, 8);
    EXPECT_EQ(pool.begin(second, kCtx).reused_tokens, 0);
}

TEST(KvPoolEvict, OutOfBlocksIsAnErrorAndChangesNothing) {
    KvPool pool = make_pool(4, 4);
    const KvSeqId a = pool.begin({}, kCtx).seq;
    const KvSeqId b = pool.begin({}, kCtx).seq;
    ASSERT_TRUE(pool.append(a, tokens(8)).ok());
    ASSERT_TRUE(pool.append(b, tokens(6)).ok());
    // b's second block has room for 2 more tokens; a third token needs a block.
    Result<KvAppend> full = pool.append(b, tokens(3));
    ASSERT_FALSE(full.ok());
    EXPECT_EQ(full.error().code, ErrorCode::OutOfMemory);
    EXPECT_EQ(full.error().message,
              "KV pool out of blocks: sequence 1 needs 1 more blocks of 4 tokens, but only 0 of 4 are free or "
              "evictable (2 sequences open)");
    EXPECT_EQ(pool.stats().sequences[1].tokens, 6);
    EXPECT_EQ(pool.stats().blocks_used, 4);
    EXPECT_EQ(pool.cell(b, 6), -1);
    EXPECT_TRUE(pool.append(b, tokens(2)).ok());
    // a's blocks were never committed: releasing a frees them.
    ASSERT_TRUE(pool.release(a).ok());
    EXPECT_TRUE(pool.append(b, tokens(1)).ok());
    EXPECT_EQ(pool.stats().evictions, 0);
}

TEST(KvPoolEvict, ASequenceLargerThanThePoolIsAClearError) {
    KvPool pool = make_pool(4, 4);
    const KvSeqId a = pool.begin({}, kCtx).seq;
    Result<KvAppend> big = pool.append(a, tokens(17));
    ASSERT_FALSE(big.ok());
    EXPECT_EQ(big.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(big.error().message,
              "KV pool: sequence 0 of 17 tokens needs 5 blocks of 4 tokens; the whole pool has 4 (16 tokens)");
    EXPECT_EQ(pool.stats().blocks_free, 4);
    ASSERT_TRUE(pool.append(a, tokens(16)).ok());
    Result<KvAppend> one_more = pool.append(a, tokens(1));
    ASSERT_FALSE(one_more.ok());
    EXPECT_EQ(one_more.error().code, ErrorCode::InvalidArgument);
}

TEST(KvPoolHistory, IsBoundedAndOrdered) {
    KvPool pool = make_pool(4, 8, /*history=*/3);
    const KvSeqId a = pool.begin({}, kCtx).seq;        // step 1
    ASSERT_TRUE(pool.append(a, tokens(9)).ok());       // step 2: 3 used
    ASSERT_TRUE(pool.commit(a).ok());                  // step 3
    const KvSeqId b = pool.begin(tokens(9), kCtx).seq; // step 4: 2 shared
    ASSERT_TRUE(pool.release(a).ok());                 // step 5: a's third block freed
    const auto& h = pool.history();
    ASSERT_EQ(h.size(), 3u);
    EXPECT_EQ(h[0].step, 3u);
    EXPECT_EQ(h[1].step, 4u);
    EXPECT_EQ(h[2].step, 5u);
    EXPECT_EQ(h[0].blocks_used, 3);
    EXPECT_EQ(h[0].sequences, 1);
    EXPECT_EQ(h[1].blocks_shared, 2);
    EXPECT_EQ(h[1].sequences, 2);
    EXPECT_EQ(h[2].blocks_used, 2);
    EXPECT_EQ(h[2].blocks_shared, 0);
    EXPECT_EQ(h[2].blocks_free, 6);
    EXPECT_EQ(h[2].blocks_cached, 0);
    EXPECT_EQ(pool.stats().sequences[0].seq, b);
}

} // namespace
} // namespace octo

namespace octo {
namespace {

TEST(KvPoolStates, BlockStatesFollowTheSequences) {
    auto pool = KvPool::create(KvPoolConfig{4, 6}).value();
    const uint64_t key = kv_context_key(KvContext{"m", 0, "", 0});
    std::vector<int32_t> prompt = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const KvBegin a = pool.begin(prompt, key);
    ASSERT_TRUE(pool.append(a.seq, prompt));
    ASSERT_TRUE(pool.commit(a.seq));
    auto count = [&](KvBlockState s) {
        const auto v = pool.block_states();
        return std::count(v.begin(), v.end(), s);
    };
    EXPECT_EQ(count(KvBlockState::Used), 3);
    EXPECT_EQ(count(KvBlockState::Free), 3);
    const KvBegin b = pool.begin(prompt, key); // shares the 2 full blocks
    EXPECT_EQ(b.reused_tokens, 8);
    EXPECT_EQ(count(KvBlockState::Shared), 2);
    ASSERT_TRUE(pool.release(a.seq));
    ASSERT_TRUE(pool.release(b.seq));
    EXPECT_EQ(count(KvBlockState::Cached), 2); // the published full blocks
    EXPECT_EQ(count(KvBlockState::Free), 4);
}

} // namespace
} // namespace octo
