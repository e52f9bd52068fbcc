#include "engine/kv/kv_pool.h"

#include <algorithm>
#include <limits>
#include <string>

#include "engine/kv/prefix_key.h"

namespace octo {

Result<KvPool> KvPool::create(const KvPoolConfig& config) {
    if (config.block_size < 1 || config.n_blocks < 1) {
        return make_error(ErrorCode::InvalidArgument,
                          "KV pool: block size (" + std::to_string(config.block_size) + ") and block count (" +
                              std::to_string(config.n_blocks) + ") must be at least 1");
    }
    if (static_cast<int64_t>(config.block_size) * config.n_blocks > std::numeric_limits<int32_t>::max()) {
        return make_error(ErrorCode::InvalidArgument, "KV pool: " + std::to_string(config.n_blocks) + " blocks of " +
                                                          std::to_string(config.block_size) +
                                                          " tokens exceed 2^31 cells");
    }
    if (config.history_capacity < 0) {
        return make_error(ErrorCode::InvalidArgument, "KV pool: history capacity must not be negative");
    }
    return KvPool(config);
}

KvPool::KvPool(const KvPoolConfig& config)
    : block_size_(config.block_size), history_capacity_(static_cast<size_t>(config.history_capacity)),
      blocks_(static_cast<size_t>(config.n_blocks)) {
    // Taken from the back: block 0 first.
    for (KvBlockId id = config.n_blocks - 1; id >= 0; --id) free_.push_back(id);
}

KvPool::Sequence* KvPool::find(KvSeqId seq) {
    const auto it = sequences_.find(seq);
    return it == sequences_.end() ? nullptr : &it->second;
}

const KvPool::Sequence* KvPool::find(KvSeqId seq) const {
    const auto it = sequences_.find(seq);
    return it == sequences_.end() ? nullptr : &it->second;
}

Error KvPool::unknown(KvSeqId seq) const {
    return make_error(ErrorCode::InvalidArgument, "KV pool: no sequence " + std::to_string(seq));
}

void KvPool::ref(KvBlockId id) {
    Block& b = blocks_[static_cast<size_t>(id)];
    if (b.refs == 0 && b.published) idle_.erase(IdleEntry{b.idle_since, -b.depth, id});
    ++b.refs;
}

void KvPool::unref(KvBlockId id) {
    Block& b = blocks_[static_cast<size_t>(id)];
    if (--b.refs > 0) return;
    if (b.published) {
        b.idle_since = step_;
        idle_.insert(IdleEntry{b.idle_since, -b.depth, id});
    } else {
        free_.push_back(id);
    }
}

void KvPool::unpublish(KvBlockId id) {
    Block& b = blocks_[static_cast<size_t>(id)];
    cache_.erase(b.key);
    b.published = false;
    b.tokens.clear();
}

KvBlockId KvPool::take_block() {
    KvBlockId id = 0;
    if (!free_.empty()) {
        id = free_.back();
        free_.pop_back();
    } else {
        id = std::get<2>(*idle_.begin());
        idle_.erase(idle_.begin());
        unpublish(id);
        ++evictions_;
    }
    blocks_[static_cast<size_t>(id)].refs = 1;
    return id;
}

int32_t KvPool::forget_cached() {
    ++step_;
    int32_t freed = 0;
    for (const IdleEntry& e : idle_) {
        const KvBlockId id = std::get<2>(e);
        unpublish(id);
        free_.push_back(id);
        ++freed;
    }
    idle_.clear();
    evictions_ += freed;
    record();
    return freed;
}

KvBegin KvPool::begin(std::span<const int32_t> prompt, uint64_t context_key) {
    ++step_;
    Sequence s;
    s.context_key = context_key;
    const size_t bs = static_cast<size_t>(block_size_);
    const size_t max_blocks = prompt.empty() ? 0 : (prompt.size() - 1) / bs;
    uint64_t previous = context_key;
    for (size_t i = 0; i < max_blocks; ++i) {
        const std::span<const int32_t> tokens = prompt.subspan(i * bs, bs);
        const uint64_t key = block_key(previous, tokens);
        const auto hit = cache_.find(key);
        if (hit == cache_.end()) break;
        const Block& b = blocks_[static_cast<size_t>(hit->second)];
        if (b.parent_key != previous || !std::equal(tokens.begin(), tokens.end(), b.tokens.begin(), b.tokens.end())) {
            break; // a 64-bit key collision: treat as a miss
        }
        ref(hit->second);
        s.table.push_back(hit->second);
        s.keys.push_back(key);
        previous = key;
    }
    s.tokens.assign(prompt.begin(), prompt.begin() + static_cast<std::ptrdiff_t>(s.table.size() * bs));
    s.reused_tokens = static_cast<int32_t>(s.tokens.size());
    const KvSeqId id = next_seq_++;
    const KvBegin result{id, s.reused_tokens};
    sequences_.emplace(id, std::move(s));
    record();
    return result;
}

Result<KvSeqId> KvPool::fork(KvSeqId parent) {
    const Sequence* p = find(parent);
    if (!p) return unknown(parent);
    ++step_;
    Sequence child = *p;
    child.reused_tokens = 0;
    for (KvBlockId id : child.table) ref(id);
    const KvSeqId id = next_seq_++;
    sequences_.emplace(id, std::move(child));
    record();
    return id;
}

Result<KvAppend> KvPool::append(KvSeqId seq, std::span<const int32_t> tokens) {
    Sequence* s = find(seq);
    if (!s) return unknown(seq);
    const int64_t length = static_cast<int64_t>(s->tokens.size());
    const int64_t new_length = length + static_cast<int64_t>(tokens.size());
    const int64_t blocks_needed = (new_length + block_size_ - 1) / block_size_;
    if (blocks_needed > n_blocks()) {
        return make_error(ErrorCode::InvalidArgument,
                          "KV pool: sequence " + std::to_string(seq) + " of " + std::to_string(new_length) +
                              " tokens needs " + std::to_string(blocks_needed) + " blocks of " +
                              std::to_string(block_size_) + " tokens; the whole pool has " +
                              std::to_string(n_blocks()) + " (" + std::to_string(int64_t{n_blocks()} * block_size_) +
                              " tokens)");
    }
    const int32_t offset = static_cast<int32_t>(length % block_size_); // filled cells of the last block
    const bool copy = !tokens.empty() && offset != 0 && blocks_[static_cast<size_t>(s->table.back())].refs > 1;
    const int64_t new_blocks = blocks_needed - static_cast<int64_t>(s->table.size()) + (copy ? 1 : 0);
    if (new_blocks > available()) {
        return make_error(ErrorCode::OutOfMemory,
                          "KV pool out of blocks: sequence " + std::to_string(seq) + " needs " +
                              std::to_string(new_blocks) + " more blocks of " + std::to_string(block_size_) +
                              " tokens, but only " + std::to_string(available()) + " of " +
                              std::to_string(n_blocks()) + " are free or evictable (" +
                              std::to_string(sequences_.size()) + " sequences open)");
    }
    ++step_;
    KvAppend result;
    result.first_position = static_cast<int32_t>(length);
    if (!tokens.empty() && offset != 0) {
        const KvBlockId last = s->table.back();
        if (copy) {
            const KvBlockId fresh = take_block();
            result.copies.push_back(KvBlockCopy{last, fresh, offset});
            ++block_copies_;
            unref(last);
            s->table.back() = fresh;
        } else if (blocks_[static_cast<size_t>(last)].published) {
            unpublish(last);
        }
    }
    while (static_cast<int64_t>(s->table.size()) < blocks_needed) s->table.push_back(take_block());
    s->tokens.insert(s->tokens.end(), tokens.begin(), tokens.end());
    record();
    return result;
}

Status KvPool::commit(KvSeqId seq, int32_t end) {
    Sequence* s = find(seq);
    if (!s) return unknown(seq);
    ++step_;
    const size_t bs = static_cast<size_t>(block_size_);
    const size_t full = std::min(s->tokens.size(), static_cast<size_t>(std::max(end, 0))) / bs;
    for (size_t i = s->keys.size(); i < full; ++i) {
        const uint64_t previous = i == 0 ? s->context_key : s->keys[i - 1];
        const std::span<const int32_t> tokens(s->tokens.data() + i * bs, bs);
        const uint64_t key = block_key(previous, tokens);
        s->keys.push_back(key);
        const KvBlockId id = s->table[i];
        Block& b = blocks_[static_cast<size_t>(id)];
        if (b.published || cache_.count(key) != 0) continue;
        b.published = true;
        b.key = key;
        b.parent_key = previous;
        b.depth = static_cast<int32_t>(i);
        b.tokens.assign(tokens.begin(), tokens.end());
        cache_.emplace(key, id);
    }
    record();
    return Ok{};
}

Status KvPool::truncate(KvSeqId seq, int32_t n_tokens) {
    Sequence* s = find(seq);
    if (!s) return unknown(seq);
    if (n_tokens < 0 || static_cast<size_t>(n_tokens) > s->tokens.size()) {
        return make_error(ErrorCode::InvalidArgument, "KV pool: cannot truncate sequence " + std::to_string(seq) +
                                                          " of " + std::to_string(s->tokens.size()) +
                                                          " tokens to " + std::to_string(n_tokens));
    }
    ++step_;
    const size_t bs = static_cast<size_t>(block_size_);
    const size_t keep_blocks = (static_cast<size_t>(n_tokens) + bs - 1) / bs;
    while (s->table.size() > keep_blocks) {
        unref(s->table.back());
        s->table.pop_back();
    }
    s->tokens.resize(static_cast<size_t>(n_tokens));
    s->keys.resize(std::min(s->keys.size(), static_cast<size_t>(n_tokens) / bs));
    s->reused_tokens = std::min(s->reused_tokens, n_tokens);
    record();
    return Ok{};
}

Status KvPool::release(KvSeqId seq) {
    const auto it = sequences_.find(seq);
    if (it == sequences_.end()) return unknown(seq);
    ++step_;
    for (KvBlockId id : it->second.table) unref(id);
    sequences_.erase(it);
    record();
    return Ok{};
}

int32_t KvPool::cell(KvSeqId seq, int32_t position) const {
    const Sequence* s = find(seq);
    if (!s || position < 0 || static_cast<size_t>(position) >= s->tokens.size()) return -1;
    return s->table[static_cast<size_t>(position / block_size_)] * block_size_ + position % block_size_;
}

std::span<const KvBlockId> KvPool::block_table(KvSeqId seq) const {
    const Sequence* s = find(seq);
    return s ? std::span<const KvBlockId>(s->table) : std::span<const KvBlockId>();
}

KvPoolStats KvPool::stats() const {
    KvPoolStats st;
    st.block_size = block_size_;
    st.blocks_total = n_blocks();
    st.blocks_free = static_cast<int32_t>(free_.size());
    st.blocks_cached = static_cast<int32_t>(idle_.size());
    st.blocks_used = st.blocks_total - st.blocks_free - st.blocks_cached;
    for (const Block& b : blocks_) st.blocks_shared += b.refs > 1 ? 1 : 0;
    st.evictions = evictions_;
    st.block_copies = block_copies_;
    for (const auto& [id, s] : sequences_) {
        KvSequenceStats q;
        q.seq = id;
        q.tokens = static_cast<int32_t>(s.tokens.size());
        q.blocks = static_cast<int32_t>(s.table.size());
        for (KvBlockId b : s.table) q.shared_blocks += blocks_[static_cast<size_t>(b)].refs > 1 ? 1 : 0;
        q.reused_tokens = s.reused_tokens;
        st.sequences.push_back(q);
    }
    return st;
}

std::vector<KvBlockState> KvPool::block_states() const {
    std::vector<KvBlockState> states(blocks_.size(), KvBlockState::Free);
    for (size_t id = 0; id < blocks_.size(); ++id) {
        const Block& b = blocks_[id];
        if (b.refs > 1) states[id] = KvBlockState::Shared;
        else if (b.refs == 1) states[id] = KvBlockState::Used;
        else if (b.published) states[id] = KvBlockState::Cached;
    }
    return states;
}

void KvPool::record() {
    if (history_capacity_ == 0) return;
    if (history_.size() == history_capacity_) history_.pop_front();
    const KvPoolStats st = stats();
    history_.push_back(KvPoolSample{step_, st.blocks_used, st.blocks_cached, st.blocks_free, st.blocks_shared,
                                    static_cast<int32_t>(st.sequences.size())});
}

} // namespace octo
